package dev.quaestor.policy;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * One node of the {@link RuleIndex} trie, laid out so that passing through it on the way to a
 * decision touches as little memory as possible (with 100,000 rules almost every node is a cache
 * miss, so the cost of a decision is the number of distinct objects it reads).
 *
 * <ul>
 *   <li>Literal children sit in an open-addressed table of nodes keyed by {@link String#hashCode}
 *       and each child keeps its own hash, so a step down is one table slot and the child itself:
 *       no map entry, no key string. The key is compared later, and only if the walk finds a rule
 *       for the caller below ({@link #reachedBy}); a segment that merely shares a hash with a key
 *       leads to a node whose rules are then rejected by that check. When two keys of one node share
 *       a hash, that node compares keys during the lookup instead.</li>
 *   <li>Each bucket has a 64-bit summary of the principal ids filed in it (bit {@code id & 63}), so
 *       a bucket with no rule for any of the caller's principals is skipped without being read.</li>
 *   <li>Once the index is built, {@link #seal} packs into one word per slot each child's hash and
 *       the summary of its whole subtree, so a walk reads one word of the table to learn that nothing
 *       below a child is for the caller (the usual case with many per-project rules) and never reads
 *       the child. The tables are at most half full.</li>
 * </ul>
 */
final class TrieNode {

    private static final TrieNode[] NO_CHILDREN = new TrieNode[0];
    // Shared: most nodes have no glob child, and an empty array of their own would be one more cache miss per step.
    private static final String[] NO_GLOBS = new String[0];

    /** The segment (literal) or segment glob that leads here from the parent; null at a root. */
    final String key;
    final TrieNode parent;
    /** Segments consumed to get here: the key stands for the URI's segment {@code depth - 1}. */
    final int depth;
    final boolean glob;
    private final int hash;

    private TrieNode[] literal = NO_CHILDREN;
    private int literalCount;
    /** Two literal keys here have the same hash: lookups must compare keys. */
    private boolean literalHashesShared;

    String[] globKeys = NO_GLOBS;
    TrieNode[] globs = NO_CHILDREN;

    RuleIndex.Bucket anyDepth;
    long anyDepthMask;
    RuleIndex.Bucket terminal;
    long terminalMask;
    /** Principal summary of every bucket at or below this node; set by {@link #seal}. */
    long subtreeMask;
    /**
     * A wider summary of the principals at or below this node, two bits of {@link #WIDE_BITS} per principal
     * ({@link #wideBit}), set by {@link #seal} only where it tells more than {@link #subtreeMask}: once a
     * subtree holds more than about a dozen principals most of the 64 bits are set and nearly every caller
     * passes, while 512 bits still turn away most callers with nothing below (a department's
     * {@code *}{@code /reports/*.md} granted to forty people), one line read instead of the walk below.
     * Null with few principals (the 64 bits suffice) or very many (it would be mostly ones).
     */
    private long[] wide;
    /** Distinct principals at or below, counted up to just over {@link #WIDE_MAX}; set by {@link #seal}. */
    private int principalCount;
    static final int WIDE_BITS = 512;
    private static final int WIDE_MIN = 9;
    private static final int WIDE_MAX = 192;
    /**
     * Set by {@link #seal}: for each slot of the child table one word, the child's hash in the high
     * half and in the low half {@link #USED} and its subtree summary folded to 31 bits
     * ({@link #fold}), so a walk finds the child and learns whether anything below it is for the
     * caller from one small array, without reading the child.
     */
    private long[] slots;
    private static final long USED = 1L << 31;

    TrieNode() {
        this(null, null, false);
    }

    private TrieNode(String key, TrieNode parent, boolean glob) {
        this.key = key;
        this.parent = parent;
        this.depth = parent == null ? 0 : parent.depth + 1;
        this.glob = glob;
        this.hash = key == null ? 0 : key.hashCode();
    }

    /** The child for a pattern segment, created if needed; only before {@link #seal}. */
    TrieNode child(String segment) {
        if (slots != null) {
            throw new IllegalStateException("sealed");
        }
        boolean isGlob = segment.indexOf('*') >= 0 || segment.contains("${");
        if (isGlob) {
            for (int i = 0; i < globKeys.length; i++) {
                if (globKeys[i].equals(segment)) {
                    return globs[i];
                }
            }
            var n = new TrieNode(segment, this, true);
            globKeys = Arrays.copyOf(globKeys, globKeys.length + 1);
            globKeys[globKeys.length - 1] = segment;
            globs = Arrays.copyOf(globs, globs.length + 1);
            globs[globs.length - 1] = n;
            return n;
        }
        TrieNode existing = literalChecked(segment);
        if (existing != null) {
            return existing;
        }
        var n = new TrieNode(segment, this, false);
        // At most half full, so a lookup for a segment that is not here ends at an empty slot soon.
        if ((literalCount + 1) * 2 > literal.length) {
            TrieNode[] old = literal;
            literal = new TrieNode[Math.max(4, Integer.highestOneBit((literalCount + 1) * 2) << 1)];
            for (TrieNode c : old) {
                if (c != null) {
                    place(c);
                }
            }
        }
        place(n);
        literalCount++;
        return n;
    }

    private void place(TrieNode n) {
        int mask = literal.length - 1;
        int i = spread(n.hash) & mask;
        // Linear probing without removal: every key with this hash sits in the run before the first empty slot.
        while (literal[i] != null) {
            if (literal[i].hash == n.hash) {
                literalHashesShared = true;
            }
            i = (i + 1) & mask;
        }
        literal[i] = n;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16);
    }

    /**
     * The literal child that {@code segment} may lead to, found by hash alone unless keys here
     * share a hash. Only a node whose key equals the segment or shares its hash comes back;
     * callers confirm with {@link #reachedBy} before trusting anything below it.
     */
    TrieNode literal(String segment) {
        TrieNode[] t = literal;
        if (literalCount == 0) {
            return null;
        }
        int h = segment.hashCode();
        int mask = t.length - 1;
        for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
            TrieNode c = t[i];
            if (c == null) {
                return null;
            }
            if (c.hash == h && (!literalHashesShared || c.key.equals(segment))) {
                return c;
            }
        }
    }

    /**
     * Like {@link #literal}, but also null when nothing at or below that child is filed under any
     * principal in {@code callerMask}; reads the child table only. Only after {@link #seal}.
     */
    TrieNode literalFor(String segment, long callerMask) {
        long[] s = slots;
        if (s == null) {
            throw new IllegalStateException("not sealed");
        }
        if (literalCount == 0) {
            return null;
        }
        int h = segment.hashCode();
        int mask = s.length - 1;
        for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
            long k = s[i];
            if (k == 0) {
                return null;
            }
            if ((int) (k >>> 32) == h && (!literalHashesShared || literal[i].key.equals(segment))) {
                return (k & fold(callerMask)) != 0 ? literal[i] : null;
            }
        }
    }

    /**
     * A 64-bit principal summary in 31 bits: bit {@code b} goes to bit {@code b} (below 31), {@code b - 31}
     * (below 62) or {@code b - 62}. Two summaries that share a bit share a bit when folded.
     */
    static long fold(long m) {
        return (m | (m >>> 31) | (m >>> 62)) & 0x7fffffffL;
    }

    /** Computes the subtree summaries and the child tables' slot words below and at this node; call once, after the last rule is filed. */
    void seal() {
        seal(new java.util.HashSet<>());
    }

    /**
     * As {@link #seal()}, adding to {@code below} the distinct principal ids at or below this node, up to
     * just over {@link #WIDE_MAX} (more need not be counted: such a subtree gets no wide summary).
     */
    private void seal(java.util.Set<Integer> below) {
        var mine = new java.util.HashSet<Integer>();
        if (anyDepth != null) {
            anyDepth.seal();
            anyDepth.addIdsTo(mine, WIDE_MAX + 1);
        }
        if (terminal != null) {
            terminal.seal();
            terminal.addIdsTo(mine, WIDE_MAX + 1);
        }
        long m = anyDepthMask | terminalMask;
        for (TrieNode g : globs) {
            g.seal(mine);
            m |= g.subtreeMask;
        }
        long[] s = new long[literal.length];
        for (int i = 0; i < literal.length; i++) {
            TrieNode c = literal[i];
            if (c != null) {
                c.seal(mine);
                m |= c.subtreeMask;
                s[i] = ((long) c.hash << 32) | USED | fold(c.subtreeMask);
            }
        }
        slots = s;
        subtreeMask = m;
        if (mine.size() >= WIDE_MIN && mine.size() <= WIDE_MAX) {
            long[] w = new long[WIDE_BITS / 64];
            for (int id : mine) {
                int a = wideBit(id, 0);
                int b = wideBit(id, 1);
                w[a >>> 6] |= 1L << a;
                w[b >>> 6] |= 1L << b;
            }
            wide = w;
            // A child with the same principals as this node would only repeat this node's answer, and a walk
            // reaches it only through here (a root's summary is not asked: hence parent != null).
            if (parent != null) {
                for (TrieNode g : globs) {
                    g.dropWideIfSame(mine.size());
                }
                for (TrieNode c : literal) {
                    if (c != null) {
                        c.dropWideIfSame(mine.size());
                    }
                }
            }
        }
        principalCount = mine.size();
        for (Integer id : mine) {
            if (below.size() > WIDE_MAX) {
                break;
            }
            below.add(id);
        }
    }

    /** Its principals are a subset of the parent's, so the same count means the same set. */
    private void dropWideIfSame(int parentCount) {
        if (principalCount == parentCount) {
            wide = null;
        }
    }

    /**
     * A principal id's two bits in a wide summary ({@code which} 0 or 1); a principal is taken to be filed
     * below if both are set. Ids are small consecutive ints, so they are spread first.
     */
    static int wideBit(int id, int which) {
        int h = (id * 2 + which + 1) * 0x9E3779B9;
        return (h ^ (h >>> 15)) & (WIDE_BITS - 1);
    }

    /**
     * False only if no principal of the caller is filed at or below this node ({@code callerWideBits}: each
     * principal's two {@link #wideBit}s, one after the other);
     * true when the node has no wide summary.
     */
    boolean admits(int[] callerWideBits) {
        long[] w = wide;
        if (w == null) {
            return true;
        }
        for (int i = 0; i < callerWideBits.length; i += 2) {
            int a = callerWideBits[i];
            int b = callerWideBits[i + 1];
            if ((w[a >>> 6] & (1L << a)) != 0 && (w[b >>> 6] & (1L << b)) != 0) {
                return true;
            }
        }
        return false;
    }

    /** The literal child whose key equals {@code segment}, or null. */
    TrieNode literalChecked(String segment) {
        TrieNode c = literal(segment);
        return c != null && c.key.equals(segment) ? c : null;
    }

    /**
     * True if every literal node from here up to the root is keyed by the URI segment at its
     * depth, i.e. this node really lies on the URI's path (glob nodes were matched on the way).
     */
    boolean reachedBy(List<String> segments) {
        for (TrieNode n = this; n.parent != null; n = n.parent) {
            if (!n.glob && !n.key.equals(segments.get(n.depth - 1))) {
                return false;
            }
        }
        return true;
    }

    void forEachLiteral(Consumer<TrieNode> out) {
        for (TrieNode c : literal) {
            if (c != null) {
                out.accept(c);
            }
        }
    }

    void file(boolean atAnyDepth, int[] ids, RuleIndex.Entry e) {
        long mask = 0;
        for (int id : ids) {
            mask |= RuleIndex.Principals.bit(id);
        }
        if (atAnyDepth) {
            if (anyDepth == null) {
                anyDepth = new RuleIndex.Bucket();
            }
            anyDepthMask |= mask;
            anyDepth.addAll(ids, e);
        } else {
            if (terminal == null) {
                terminal = new RuleIndex.Bucket();
            }
            terminalMask |= mask;
            terminal.addAll(ids, e);
        }
    }

    /** Every entry filed at or below this node. */
    void forEachBelow(Consumer<RuleIndex.Entry> out) {
        if (anyDepth != null) {
            anyDepth.forEachAll(out);
        }
        if (terminal != null) {
            terminal.forEachAll(out);
        }
        forEachLiteral(n -> n.forEachBelow(out));
        for (TrieNode n : globs) {
            n.forEachBelow(out);
        }
    }
}
