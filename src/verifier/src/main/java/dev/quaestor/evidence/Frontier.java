package dev.quaestor.evidence;

/**
 * The right edge of an append-only Merkle tree, one complete subtree per set bit of its size: an append costs O(log n)
 * hashes and reports each subtree it completes; the root is folded from the edge.
 */
public final class Frontier {

    /** Receives a subtree completed by an append: level 1 and up (level 0 is the leaf itself). */
    @FunctionalInterface
    public interface CompletedNode {
        void completed(int level, long index, byte[] hash);
    }

    private final byte[][] byLevel = new byte[64][];
    private long size;

    /** The edge of a tree of {@code size} leaves, read from its complete subtrees. */
    public static Frontier of(long size, NodeSource nodes) {
        var f = new Frontier();
        long start = 0;
        for (int level = 63; level >= 0; level--) {
            if ((size >>> level & 1) != 0) {
                f.byLevel[level] = nodes.node(level, start >>> level);
                start += 1L << level;
            }
        }
        f.size = size;
        return f;
    }

    public long size() {
        return size;
    }

    /** Appends a leaf hash; {@code sink} (may be null) hears of every subtree this completes. */
    public void append(byte[] leafHash, CompletedNode sink) {
        byte[] node = leafHash;
        long index = size;
        int level = 0;
        while ((size >>> level & 1) != 0) {
            node = TreeHash.node(byLevel[level], node);
            byLevel[level] = null;
            level++;
            index >>>= 1;
            if (sink != null) {
                sink.completed(level, index, node);
            }
        }
        byLevel[level] = node;
        size++;
    }

    /** The complete subtree at {@code level} on the edge, or null if the size has no such bit. */
    public byte[] edge(int level) {
        byte[] h = byLevel[level];
        return h == null ? null : h.clone();
    }

    /** The root of the tree so far (RFC 6962 MTH). */
    public byte[] root() {
        byte[] root = null;
        for (int level = 0; level < 64; level++) {
            if (byLevel[level] != null) {
                root = root == null ? byLevel[level] : TreeHash.node(byLevel[level], root);
            }
        }
        return root == null ? TreeHash.EMPTY_ROOT.clone() : root;
    }

    public Frontier copy() {
        var f = new Frontier();
        System.arraycopy(byLevel, 0, f.byLevel, 0, byLevel.length);
        f.size = size;
        return f;
    }
}
