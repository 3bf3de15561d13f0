package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A trie over scheme, authority and path segments that finds the few rule patterns that could
 * match a URI without looking at the others, so a decision costs about the same with 10 rules or
 * 100,000. Literal segments are hash lookups; segments with {@code *} or placeholders are tried
 * one by one at their node; a {@code **} segment ends the path and its pattern is a candidate for
 * everything below. At each node, entries are further keyed by the principals their rule names
 * (role, group, subject, client, tenant, or any), so a thousand rules on one path for a thousand
 * different users cost one lookup per attribute of the caller, not a thousand checks.
 * Candidates are then checked in full by {@link ResourcePattern#matches}.
 */
final class RuleIndex {

    /**
     * One (rule, pattern) pair: a rule with several resources has several entries. The flags are
     * the rule's facts flattened into the entry, so a candidate is judged without chasing the
     * rule's sets: {@code exact} means reaching the entry in the trie already proved the pattern
     * matches (every segment was compared on the way down).
     */
    record Entry(Rule rule, ResourcePattern pattern, int actionMask, boolean deny, boolean unconditional,
            boolean exact) {

        static Entry of(Rule rule, ResourcePattern pattern, boolean exact) {
            int mask = 0;
            for (Action a : rule.actions()) {
                mask |= 1 << a.ordinal();
            }
            return new Entry(rule, pattern, mask, rule.effect() == Effect.DENY, rule.when().equals(Conditions.NONE), exact);
        }

        boolean covers(Action a) {
            return (actionMask & (1 << a.ordinal())) != 0;
        }
    }

    /** Receives candidates; denies always, allows only while it still wants them. */
    interface Sink extends Consumer<Entry> {
        boolean wantsAllows();
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

        /** The ids a caller answers to: anyone, plus each attribute some rule names. */
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
            return n == out.length ? out : java.util.Arrays.copyOf(out, n);
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
     */
    static final class Bucket {
        private static final Entry[] NONE = new Entry[0];
        private int[] ids = new int[0];
        private Entry[][] denies = new Entry[0][];
        private Entry[][] allows = new Entry[0][];

        /** Keeps {@code ids} sorted, so a caller's few ids are found by binary search however many rules share the node. */
        void add(int id, Entry e) {
            int i = java.util.Arrays.binarySearch(ids, id);
            if (i < 0) {
                i = -i - 1;
                ids = insert(ids, i, id);
                denies = insert(denies, i, NONE);
                allows = insert(allows, i, NONE);
            }
            Entry[][] side = e.deny() ? denies : allows;
            side[i] = java.util.Arrays.copyOf(side[i], side[i].length + 1);
            side[i][side[i].length - 1] = e;
        }

        private static int[] insert(int[] a, int at, int v) {
            int[] out = new int[a.length + 1];
            System.arraycopy(a, 0, out, 0, at);
            out[at] = v;
            System.arraycopy(a, at, out, at + 1, a.length - at);
            return out;
        }

        private static Entry[][] insert(Entry[][] a, int at, Entry[] v) {
            Entry[][] out = new Entry[a.length + 1][];
            System.arraycopy(a, 0, out, 0, at);
            out[at] = v;
            System.arraycopy(a, at, out, at + 1, a.length - at);
            return out;
        }

        /** Entries whose rule could name a caller with these ids (an entry may come more than once). */
        void forEach(int[] callerIds, Sink out) {
            for (int c : callerIds) {
                int i = ids.length <= 4 ? linear(c) : java.util.Arrays.binarySearch(ids, c);
                if (i < 0) {
                    continue;
                }
                for (Entry e : denies[i]) {
                    out.accept(e);
                }
                for (Entry e : allows[i]) {
                    if (!out.wantsAllows()) {
                        break;
                    }
                    out.accept(e);
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

    static final class Node {
        Map<String, Node> literal;
        Map<String, Node> globs;
        Bucket anyDepth;
        Bucket terminal;

        Node child(String segment) {
            boolean glob = segment.indexOf('*') >= 0 || segment.contains("${");
            if (glob) {
                if (globs == null) {
                    globs = new LinkedHashMap<>(2);
                }
                return globs.computeIfAbsent(segment, k -> new Node());
            }
            if (literal == null) {
                literal = new HashMap<>(4);
            }
            return literal.computeIfAbsent(segment, k -> new Node());
        }

        void file(boolean atAnyDepth, int[] ids, Entry e) {
            Bucket b = atAnyDepth ? anyDepth : terminal;
            if (b == null) {
                b = new Bucket();
                if (atAnyDepth) {
                    anyDepth = b;
                } else {
                    terminal = b;
                }
            }
            for (int id : ids) {
                b.add(id, e);
            }
        }

        void forEachBelow(Consumer<Entry> out) {
            if (anyDepth != null) {
                anyDepth.forEachAll(out);
            }
            if (terminal != null) {
                terminal.forEachAll(out);
            }
            if (literal != null) {
                literal.values().forEach(n -> n.forEachBelow(out));
            }
            if (globs != null) {
                globs.values().forEach(n -> n.forEachBelow(out));
            }
        }
    }

    private static final String ANY = "\u0000any";

    /** scheme (or ANY) -> authority (or ANY) -> root of the path trie. */
    private final Map<String, Map<String, Node>> roots = new HashMap<>();
    private final Principals principals = new Principals();

    RuleIndex(List<Rule> rules) {
        for (Rule r : rules) {
            for (ResourcePattern p : r.resources()) {
                Node n = roots.computeIfAbsent(p.scheme() == null ? ANY : p.scheme(), k -> new HashMap<>())
                        .computeIfAbsent(p.authority() == null ? ANY : p.authority(), k -> new Node());
                int[] ids = principals.idsOf(r.subjects());
                List<String> segs = p.segments();
                int depth = 0;
                while (depth < segs.size() && !segs.get(depth).equals(ResourcePattern.ANY_DEPTH)) {
                    n = n.child(segs.get(depth));
                    depth++;
                }
                boolean anyDepth = depth < segs.size();
                // Exact unless something follows the ** (file:///a/**/raw): then the rest is checked in full.
                boolean exact = !anyDepth || depth == segs.size() - 1;
                n.file(anyDepth, ids, Entry.of(r, p, exact));
            }
        }
    }

    /** Every entry whose pattern could match {@code uri}; callers still check each in full. */
    void candidates(CanonicalUri uri, Identity who, Sink out) {
        int[] keys = principals.idsOf(who);
        for (Node root : roots(uri)) {
            walk(root, uri.segments(), 0, who, keys, out);
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
                Map<String, Node> byAuthority = roots.get(scheme);
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
        for (Node root : roots(prefix)) {
            reach(root, prefix.segments(), 0, who, out);
        }
    }

    private List<Node> roots(CanonicalUri uri) {
        var out = new ArrayList<Node>(4);
        for (String scheme : new String[] {uri.scheme(), ANY}) {
            Map<String, Node> byAuthority = roots.get(scheme);
            if (byAuthority != null) {
                Node exact = byAuthority.get(uri.authority());
                if (exact != null) {
                    out.add(exact);
                }
                Node any = byAuthority.get(ANY);
                if (any != null) {
                    out.add(any);
                }
            }
        }
        return out;
    }

    private static void walk(Node n, List<String> segs, int i, Identity who, int[] keys, Sink out) {
        if (n.anyDepth != null) {
            n.anyDepth.forEach(keys, out);
        }
        if (i == segs.size()) {
            if (n.terminal != null) {
                n.terminal.forEach(keys, out);
            }
            return;
        }
        Node next = n.literal == null ? null : n.literal.get(segs.get(i));
        if (next != null) {
            walk(next, segs, i + 1, who, keys, out);
        }
        if (n.globs != null) {
            for (var g : n.globs.entrySet()) {
                if (ResourcePattern.segmentMatches(ResourcePattern.bind(g.getKey(), who), segs.get(i))) {
                    walk(g.getValue(), segs, i + 1, who, keys, out);
                }
            }
        }
    }

    private static void reach(Node n, List<String> segs, int i, Identity who, java.util.function.BiConsumer<Entry, Boolean> out) {
        int depth = i;
        if (n.anyDepth != null) {
            n.anyDepth.forEachAll(e -> out.accept(e, e.pattern().endsWithAnyDepthAt(depth)));
        }
        if (i == segs.size()) {
            if (n.terminal != null) {
                n.terminal.forEachAll(e -> out.accept(e, false));
            }
            if (n.literal != null) {
                n.literal.values().forEach(c -> c.forEachBelow(e -> out.accept(e, false)));
            }
            if (n.globs != null) {
                n.globs.values().forEach(c -> c.forEachBelow(e -> out.accept(e, false)));
            }
            return;
        }
        Node next = n.literal == null ? null : n.literal.get(segs.get(i));
        if (next != null) {
            reach(next, segs, i + 1, who, out);
        }
        if (n.globs == null) {
            return;
        }
        for (var g : n.globs.entrySet()) {
            if (ResourcePattern.segmentMatches(ResourcePattern.bind(g.getKey(), who), segs.get(i))) {
                reach(g.getValue(), segs, i + 1, who, out);
            }
        }
    }
}
