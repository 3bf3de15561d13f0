package dev.quaestor.evidence.prove;

import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.NodeSource;
import dev.quaestor.evidence.TreeHash;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A log's tree rebuilt from its records, keeping what proofs need and little else, as the server's
 * store does (docs/audit-format.md, section 2): every complete subtree of 16 leaves or more, and the
 * leaves of the 16-leaf blocks it is told to keep (those of the records to prove and at the sizes
 * proofs end at). Everything else is computed from these, never by rehashing the log.
 */
public final class LogTree implements NodeSource {

    private static final int BLOCK_LEVEL = 4;
    private static final int BLOCK = 1 << BLOCK_LEVEL;

    private final long start;
    private final NodeSource before;
    private final Frontier frontier;
    private final Set<Long> keep = new HashSet<>();
    private final Map<Long, byte[][]> blocks = new HashMap<>();
    private byte[][] current;
    private long currentBlock = -1;
    /** Level l >= 4: the hashes of nodes first[l], first[l] + 1, … (32 bytes each), completed in that order. */
    private final byte[][] stored = new byte[64][];
    private final long[] first = new long[64];
    private final long[] count = new long[64];
    private final Frontier.CompletedNode onCompleted = this::completed;

    /** An empty tree. */
    public LogTree() {
        this(0, null);
    }

    /** A tree whose first {@code start} leaves are not given, but whose complete subtrees among them {@code before} knows. */
    public LogTree(long start, NodeSource before) {
        this.start = start;
        this.before = before;
        this.frontier = start == 0 ? new Frontier() : Frontier.of(start, before);
    }

    public long size() {
        return frontier.size();
    }

    /** Keeps the leaves of the block that holds leaf {@code index} (to be appended later). */
    public void keepLeaf(long index) {
        keep.add(index / BLOCK);
        if (index / BLOCK == currentBlock && current != null) {
            blocks.put(currentBlock, current);
        }
    }

    /** Keeps what proofs ending at tree size {@code size} need: the blocks of its last leaf and of the leaf after it. */
    public void keepSize(long size) {
        if (size > 0) {
            keepLeaf(size - 1);
        }
        keepLeaf(size);
    }

    public void append(byte[] leaf) {
        long index = frontier.size();
        if (index / BLOCK != currentBlock) {
            currentBlock = index / BLOCK;
            current = new byte[BLOCK][];
            if (keep.contains(currentBlock)) {
                blocks.put(currentBlock, current);
            }
        }
        current[(int) (index % BLOCK)] = leaf;
        frontier.append(leaf, onCompleted);
    }

    private void completed(int level, long index, byte[] hash) {
        if (level < BLOCK_LEVEL) {
            return;
        }
        if (stored[level] == null) {
            stored[level] = new byte[32 * 16];
            first[level] = index;
        }
        long at = index - first[level];
        if (32 * (at + 1) > stored[level].length) {
            stored[level] = Arrays.copyOf(stored[level], (int) Math.min(Integer.MAX_VALUE - 8, 2L * stored[level].length));
        }
        System.arraycopy(hash, 0, stored[level], (int) (32 * at), 32);
        count[level] = at + 1;
    }

    public byte[] root() {
        return frontier.root();
    }

    @Override
    public byte[] node(int level, long index) {
        long end = (index + 1) << level;
        if (end > frontier.size()) {
            throw new IllegalStateException("no node " + level + "/" + index + " in a tree of " + frontier.size());
        }
        if (end <= start) {
            return before.node(level, index);
        }
        if (level >= BLOCK_LEVEL) {
            long at = index - first[level];
            if (stored[level] == null || at < 0 || at >= count[level]) {
                throw new IllegalStateException("node " + level + "/" + index + " was not kept");
            }
            return Arrays.copyOfRange(stored[level], (int) (32 * at), (int) (32 * at + 32));
        }
        if (level == 0) {
            byte[][] block = blocks.get(index / BLOCK);
            byte[] leaf = block == null ? null : block[(int) (index % BLOCK)];
            if (leaf == null) {
                throw new IllegalStateException("leaf " + index + " was not kept");
            }
            return leaf;
        }
        return TreeHash.node(node(level - 1, 2 * index), node(level - 1, 2 * index + 1));
    }
}
