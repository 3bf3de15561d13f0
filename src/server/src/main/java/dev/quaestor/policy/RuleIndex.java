package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A trie over scheme, authority and path segments that finds the few rule patterns that could
 * match a URI without looking at the others, so a decision costs about the same with 10 rules or
 * 100,000. Literal segments are hash lookups ({@link TrieNode}); segments with {@code *} or
 * placeholders are tried one by one at their node; a {@code **} segment ends the path and its
 * pattern is a candidate for everything below. At each node, entries are further keyed by the
 * principals their rule names (role, group, subject, client, tenant, or any), so a thousand rules
 * on one path for a thousand different users cost one lookup per attribute of the caller, not a
 * thousand checks, and a 64-bit summary of those principals lets a walk pass a node with nothing
 * for the caller without reading its bucket (a child table holds its children's summaries, so a
 * whole subtree with nothing for the caller is passed without reading it). A walk allocates only
 * the caller's principal ids.
 * Candidates are then checked by {@link PolicySet} (action, conditions, and the full pattern when
 * the trie alone did not prove it).
 */
final class RuleIndex {

    /**
     * One (rule, pattern) pair: a rule with several resources has several entries. The flags are
     * the rule's facts flattened into the entry, so a candidate is judged without chasing the
     * rule's sets: {@code exact} means reaching the entry in the trie already proved the pattern
     * matches (every segment was compared on the way down). {@code id} is the rule's id, held here
     * so that recording a match reads the entry alone, not the rule behind it.
     */
    record Entry(Rule rule, String id, ResourcePattern pattern, int actionMask, boolean deny, boolean unconditional,
            boolean exact) {

        static Entry of(Rule rule, ResourcePattern pattern, boolean exact) {
            int mask = 0;
            for (Action a : rule.actions()) {
                mask |= 1 << a.ordinal();
            }
            return new Entry(rule, rule.id(), pattern, mask, rule.effect() == Effect.DENY, rule.when().equals(Conditions.NONE), exact);
        }

        boolean covers(Action a) {
            return (actionMask & (1 << a.ordinal())) != 0;
        }

        /** The action mask plus {@link #UNCONDITIONAL} and {@link #EXACT} when they hold. */
        int flags() {
            return actionMask | (unconditional ? UNCONDITIONAL : 0) | (exact ? EXACT : 0);
        }

        static final int UNCONDITIONAL = 1 << 16;
        static final int EXACT = 1 << 17;
    }

    /** Receives candidates; denies always, allows only while it still wants them. */
    interface Sink extends Consumer<Entry> {
        boolean wantsAllows();

        /**
         * Offers, at once, the ids of allow rules whose entries all hold the flags in {@code flags}
         * ({@link Entry#flags}, and-ed over the entries); returns false if the sink needs the entries
         * themselves (the action is not covered by all of them, or one has conditions or an inexact
         * pattern), and they are then offered one by one.
         */
        boolean acceptAllows(String[] ruleIds, int flags);
    }

    /**
     * Principal names (role, group, subject, client, tenant) mapped to small ints at build time.
     * A caller's attributes that no rule names drop out before the walk, and buckets compare ints.
     */
    static final class Principals {
        static final int ANYONE = 0;
        private final Map<String, Integer> roles = new HashMap<>();
        private final Map<String, Integer> groups = new HashMap<>();
        private final Map<String, Integer> subjects = new HashMap<>();
        private final Map<String, Integer> clients = new HashMap<>();
        private final Map<String, Integer> tenants = new HashMap<>();
        private int next = 1;

        int[] idsOf(SubjectSet s) {
            if (s.roles().contains("*") || s.groups().contains("*") || s.subjects().contains("*")
                    || s.clients().contains("*") || s.tenants().contains("*")) {
                return new int[] {ANYONE};
            }
            var ids = new ArrayList<Integer>();
            s.roles().forEach(v -> ids.add(roles.computeIfAbsent(v, k -> next++)));
            s.groups().forEach(v -> ids.add(groups.computeIfAbsent(v, k -> next++)));
            s.subjects().forEach(v -> ids.add(subjects.computeIfAbsent(v, k -> next++)));
            s.clients().forEach(v -> ids.add(clients.computeIfAbsent(v, k -> next++)));
            s.tenants().forEach(v -> ids.add(tenants.computeIfAbsent(v, k -> next++)));
            return ids.stream().mapToInt(Integer::intValue).toArray();
        }

        /** Fills the unused end of a caller's ids (attributes no rule names), so they need no second array. */
        static final int NONE = -1;

        /** The ids a caller answers to: anyone, plus each attribute some rule names, then {@link #NONE}s. */
        int[] idsOf(Identity who) {
            int[] out = new int[2 + who.roles().size() + who.groups().size() + 2];
            int n = 0;
            out[n++] = ANYONE;
            n = add(out, n, subjects.get(who.subject()));
            for (String r : who.roles()) {
                n = add(out, n, roles.get(r));
            }
            for (String g : who.groups()) {
                n = add(out, n, groups.get(g));
            }
            n = add(out, n, who.client() == null ? null : clients.get(who.client()));
            n = add(out, n, who.tenant() == null ? null : tenants.get(who.tenant()));
            java.util.Arrays.fill(out, n, out.length, NONE);
            return out;
        }

        /** The bit that stands for a principal id in a bucket's summary ({@link TrieNode#anyDepthMask}). */
        static long bit(int id) {
            return 1L << (id & 63);
        }

        static long maskOf(int[] ids) {
            long m = 0;
            for (int id : ids) {
                if (id != NONE) {
                    m |= bit(id);
                }
            }
            return m;
        }

        private static int add(int[] out, int n, Integer id) {
            if (id != null) {
                out[n++] = id;
            }
            return n;
        }
    }

    /**
     * Entries at one node, filed under the principal ids their rules name, denies apart from
     * allows so that a sink that has enough allows never touches the rest; small flat arrays.
     * Beside each principal's allows sit their rule ids and their flags and-ed together, so the
     * usual allow (unconditional, exact, covering the action) is recorded from one array of ids
     * without reading its entries: with 100,000 rules each entry read is a cache miss.
     */
    static final class Bucket {
        private static final Entry[] NO_ENTRIES = new Entry[0];
        private static final String[] NO_IDS = new String[0];
        private int[] ids = new int[0];
        private Entry[][] denies = new Entry[0][];
        private Entry[][] allows = new Entry[0][];
        private String[][] allowIds = new String[0][];
        private int[] allowFlags = new int[0];
        /** Up to this many principals, a caller's ids are found by scanning {@link #ids}. */
        private static final int LINEAR_MAX = 8;
        /**
         * For buckets with more principals, set by {@link #seal}: an open-addressed table of
         * (id, index + 1) pairs, at most half full, so finding one of the caller's ids reads one
         * line of it rather than the several lines and mispredicted branches of a binary search.
         */
        private int[] table;

        void addAll(int[] ids, Entry e) {
            for (int id : ids) {
                add(id, e);
            }
        }

        /** Keeps {@code ids} sorted, so a caller's few ids are found by binary search however many rules share the node. */
        void add(int id, Entry e) {
            int i = java.util.Arrays.binarySearch(ids, id);
            if (i < 0) {
                i = -i - 1;
                ids = insert(ids, i, id);
                denies = insert(denies, i, NO_ENTRIES);
                allows = insert(allows, i, NO_ENTRIES);
                allowIds = insert(allowIds, i, NO_IDS);
                allowFlags = insert(allowFlags, i, -1);
            }
            Entry[][] side = e.deny() ? denies : allows;
            side[i] = java.util.Arrays.copyOf(side[i], side[i].length + 1);
            side[i][side[i].length - 1] = e;
            if (!e.deny()) {
                allowIds[i] = java.util.Arrays.copyOf(allowIds[i], allowIds[i].length + 1);
                allowIds[i][allowIds[i].length - 1] = e.id();
                allowFlags[i] &= e.flags();
            }
        }

        private static int[] insert(int[] a, int at, int v) {
            int[] out = new int[a.length + 1];
            System.arraycopy(a, 0, out, 0, at);
            out[at] = v;
            System.arraycopy(a, at, out, at + 1, a.length - at);
            return out;
        }

        private static <T> T[] insert(T[] a, int at, T v) {
            T[] out = java.util.Arrays.copyOf(a, a.length + 1);
            System.arraycopy(a, at, out, at + 1, a.length - at);
            out[at] = v;
            return out;
        }

        /**
         * Entries whose rule could name a caller with these ids (an entry may come more than once),
         * provided {@code at} really lies on the URI's path: checked once, when the first id matches.
         */
        void forEach(int[] callerIds, TrieNode at, List<String> segments, Sink out) {
            boolean onPath = false;
            for (int c : callerIds) {
                if (c == Principals.NONE) {
                    break;
                }
                int i = table == null ? linear(c) : lookup(c);
                if (i < 0) {
                    continue;
                }
                if (!onPath) {
                    if (!at.reachedBy(segments)) {
                        return;
                    }
                    onPath = true;
                }
                for (Entry e : denies[i]) {
                    out.accept(e);
                }
                if (!out.wantsAllows() || allowIds[i].length == 0 || out.acceptAllows(allowIds[i], allowFlags[i])) {
                    continue;
                }
                for (Entry e : allows[i]) {
                    if (!out.wantsAllows()) {
                        break;
                    }
                    out.accept(e);
                }
            }
        }

        /** Adds this bucket's principal ids to {@code into} while it holds fewer than {@code cap}. */
        void addIdsTo(java.util.Set<Integer> into, int cap) {
            for (int id : ids) {
                if (into.size() >= cap) {
                    return;
                }
                into.add(id);
            }
        }

        void seal() {
            if (ids.length <= LINEAR_MAX) {
                return;
            }
            int slots = Integer.highestOneBit(ids.length * 2 - 1) << 1;
            int[] t = new int[slots * 2];
            for (int i = 0; i < ids.length; i++) {
                int p = slotOf(ids[i], slots - 1);
                while (t[2 * p + 1] != 0) {
                    p = (p + 1) & (slots - 1);
                }
                t[2 * p] = ids[i];
                t[2 * p + 1] = i + 1;
            }
            table = t;
        }

        private static int slotOf(int id, int mask) {
            int h = id * 0x9E3779B9;
            return (h ^ (h >>> 16)) & mask;
        }

        private int lookup(int id) {
            int[] t = table;
            int mask = (t.length >>> 1) - 1;
            for (int p = slotOf(id, mask); ; p = (p + 1) & mask) {
                int at = t[2 * p + 1];
                if (at == 0) {
                    return -1;
                }
                if (t[2 * p] == id) {
                    return at - 1;
                }
            }
        }

        private int linear(int id) {
            for (int i = 0; i < ids.length; i++) {
                if (ids[i] == id) {
                    return i;
                }
            }
            return -1;
        }

        void forEachAll(Consumer<Entry> out) {
            for (Entry[] l : denies) {
                for (Entry e : l) {
                    out.accept(e);
                }
            }
            for (Entry[] l : allows) {
                for (Entry e : l) {
                    out.accept(e);
                }
            }
        }
    }

    /**
     * A caller's principal ids in this index, their 64-bit summary ({@link Principals#maskOf}) and
     * their bits in a wide subtree summary ({@link TrieNode#admits}).
     */
    record CallerKeys(Identity who, int[] ids, long mask, int[] wideBits) {

        static CallerKeys of(Identity who, int[] ids) {
            int n = 0;
            while (n < ids.length && ids[n] != Principals.NONE) {
                n++;
            }
            int[] bits = new int[2 * n];
            for (int i = 0; i < n; i++) {
                bits[2 * i] = TrieNode.wideBit(ids[i], 0);
                bits[2 * i + 1] = TrieNode.wideBit(ids[i], 1);
            }
            return new CallerKeys(who, ids, Principals.maskOf(ids), bits);
        }
    }

    /**
     * The principal ids of recent callers. The server maps a verified token to one {@link Identity}
     * and reuses it for every request with that token, so an agent's requests find their ids here
     * instead of looking up each role, group, subject, client and tenant again (with 100,000 rules
     * those maps are a cache miss per attribute). Direct-mapped on the identity hash and compared by
     * reference; a slot holds an immutable record, so racing writers only overwrite each other.
     */
    static final class RecentCallers {
        private static final int SLOTS = 256;
        private final CallerKeys[] slots = new CallerKeys[SLOTS];

        CallerKeys of(Identity who, Principals principals) {
            int slot = System.identityHashCode(who) & (SLOTS - 1);
            CallerKeys known = slots[slot];
            if (known != null && known.who() == who) {
                return known;
            }
            int[] ids = principals.idsOf(who);
            CallerKeys fresh = CallerKeys.of(who, ids);
            slots[slot] = fresh;
            return fresh;
        }
    }

    private static final String ANY = "\u0000any";

    /** scheme (or ANY) -> authority (or ANY) -> root of the path trie. */
    private final Map<String, Map<String, TrieNode>> roots = new HashMap<>();
    private final Principals principals = new Principals();
    private final RecentCallers recent = new RecentCallers();

    RuleIndex(List<Rule> rules) {
        // One String per distinct segment text: the 97 departments' "*", "reports" and "*.md" keys are
        // then one object each that every walk keeps in cache, not 97 objects that each miss.
        var keys = new HashMap<String, String>();
        for (Rule r : rules) {
            for (ResourcePattern p : r.resources()) {
                TrieNode n = roots.computeIfAbsent(p.scheme() == null ? ANY : p.scheme(), k -> new HashMap<>())
                        .computeIfAbsent(p.authority() == null ? ANY : p.authority(), k -> new TrieNode());
                int[] ids = principals.idsOf(r.subjects());
                List<String> segs = p.segments();
                int depth = 0;
                while (depth < segs.size() && !segs.get(depth).equals(ResourcePattern.ANY_DEPTH)) {
                    n = n.child(keys.computeIfAbsent(segs.get(depth), k -> k));
                    depth++;
                }
                boolean anyDepth = depth < segs.size();
                // Exact unless something follows the ** (file:///a/**/raw): then the rest is checked in full.
                boolean exact = !anyDepth || depth == segs.size() - 1;
                n.file(anyDepth, ids, Entry.of(r, p, exact));
            }
        }
        roots.values().forEach(byAuthority -> byAuthority.values().forEach(TrieNode::seal));
    }

    /** Every entry whose pattern could match {@code uri}; callers still check each in full. */
    void candidates(CanonicalUri uri, Identity who, Sink out) {
        CallerKeys caller = recent.of(who, principals);
        List<String> segs = uri.segments();
        for (int s = 0; s < 2; s++) {
            Map<String, TrieNode> byAuthority = roots.get(s == 0 ? uri.scheme() : ANY);
            if (byAuthority == null) {
                continue;
            }
            TrieNode exact = byAuthority.get(uri.authority());
            if (exact != null) {
                walk(exact, segs, 0, who, caller, out);
            }
            TrieNode any = byAuthority.get(ANY);
            if (any != null) {
                walk(any, segs, 0, who, caller, out);
            }
        }
    }

    /**
     * Entries whose pattern could match something at or below {@code prefix}, and whether each
     * covers all of it (a trailing {@code **} reached on the way). Used for subtree verdicts.
     */
    void below(CanonicalUri prefix, Identity who, java.util.function.BiConsumer<Entry, Boolean> out) {
        if (prefix.authority().isEmpty() && prefix.segments().isEmpty()) {
            // A scheme-only prefix such as test:// spans every authority of the scheme.
            for (String scheme : new String[] {prefix.scheme(), ANY}) {
                Map<String, TrieNode> byAuthority = roots.get(scheme);
                if (byAuthority != null) {
                    byAuthority.forEach((authority, root) -> {
                        if (authority.equals(ANY)) {
                            reach(root, prefix.segments(), 0, who, out);
                        } else {
                            root.forEachBelow(e -> out.accept(e, false));
                        }
                    });
                }
            }
            return;
        }
        for (TrieNode root : roots(prefix)) {
            reach(root, prefix.segments(), 0, who, out);
        }
    }

    private List<TrieNode> roots(CanonicalUri uri) {
        var out = new ArrayList<TrieNode>(4);
        for (String scheme : new String[] {uri.scheme(), ANY}) {
            Map<String, TrieNode> byAuthority = roots.get(scheme);
            if (byAuthority != null) {
                TrieNode exact = byAuthority.get(uri.authority());
                if (exact != null) {
                    out.add(exact);
                }
                TrieNode any = byAuthority.get(ANY);
                if (any != null) {
                    out.add(any);
                }
            }
        }
        return out;
    }

    /**
     * Follows the URI down the trie: literal steps by hash (a node reached by a mere hash
     * collision is rejected by {@link Bucket#forEach} before any of its entries is used), glob
     * steps by matching the segment; children whose subtree, and buckets whose own summary, show
     * no principal of the caller are not read at all. A node's depth is the URI segment it stands
     * for and the trie holds no {@code **} (a path stops at its first one), so a walk reaches each
     * node at most once: it never backtracks, whatever the patterns.
     */
    private static void walk(TrieNode n, List<String> segs, int i, Identity who, CallerKeys caller, Sink out) {
        long mask = caller.mask();
        int[] keys = caller.ids();
        if ((n.anyDepthMask & mask) != 0) {
            n.anyDepth.forEach(keys, n, segs, out);
        }
        if (i == segs.size()) {
            if ((n.terminalMask & mask) != 0) {
                n.terminal.forEach(keys, n, segs, out);
            }
            return;
        }
        String seg = segs.get(i);
        TrieNode next = n.literalFor(seg, mask);
        if (next != null && next.admits(caller.wideBits())) {
            walk(next, segs, i + 1, who, caller, out);
        }
        String[] globKeys = n.globKeys;
        for (int g = 0; g < globKeys.length; g++) {
            TrieNode c = n.globs[g];
            if ((c.subtreeMask & mask) != 0 && c.admits(caller.wideBits()) && ResourcePattern.segmentMatches(globKeys[g], who, seg)) {
                walk(c, segs, i + 1, who, caller, out);
            }
        }
    }

    private static void reach(TrieNode n, List<String> segs, int i, Identity who, java.util.function.BiConsumer<Entry, Boolean> out) {
        int depth = i;
        if (n.anyDepth != null) {
            n.anyDepth.forEachAll(e -> out.accept(e, e.pattern().endsWithAnyDepthAt(depth)));
        }
        if (i == segs.size()) {
            if (n.terminal != null) {
                n.terminal.forEachAll(e -> out.accept(e, false));
            }
            n.forEachLiteral(c -> c.forEachBelow(e -> out.accept(e, false)));
            for (TrieNode c : n.globs) {
                c.forEachBelow(e -> out.accept(e, false));
            }
            return;
        }
        TrieNode next = n.literalChecked(segs.get(i));
        if (next != null) {
            reach(next, segs, i + 1, who, out);
        }
        for (int g = 0; g < n.globKeys.length; g++) {
            if (ResourcePattern.segmentMatches(n.globKeys[g], who, segs.get(i))) {
                reach(n.globs[g], segs, i + 1, who, out);
            }
        }
    }
}
