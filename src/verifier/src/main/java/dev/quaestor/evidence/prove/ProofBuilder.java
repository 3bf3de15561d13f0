package dev.quaestor.evidence.prove;

import dev.quaestor.evidence.NodeSource;
import dev.quaestor.evidence.TreeHash;
import java.util.ArrayList;
import java.util.List;

/**
 * Inclusion and consistency proofs (RFC 6962 §2.1.1, §2.1.2) read from a {@link NodeSource}: every
 * hash a proof needs is a complete subtree or is folded from a few of them, so a proof costs
 * O(log n) node reads and never rehashes the log.
 */
public final class ProofBuilder {

    private final NodeSource nodes;

    public ProofBuilder(NodeSource nodes) {
        this.nodes = nodes;
    }

    /** The audit path of leaf {@code index} in the tree of {@code size} leaves, leaf's sibling first. */
    public List<byte[]> inclusion(long index, long size) {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf " + index + " is not in a tree of " + size);
        }
        var path = new ArrayList<byte[]>();
        path(index, 0, size, path);
        return path;
    }

    /** The proof that the tree of {@code from} leaves is a prefix of the tree of {@code to} leaves. */
    public List<byte[]> consistency(long from, long to) {
        if (from < 0 || from > to) {
            throw new IllegalArgumentException("no consistency proof from " + from + " to " + to);
        }
        var proof = new ArrayList<byte[]>();
        if (from == 0 || from == to) {
            return proof;
        }
        subproof(from, 0, to, true, proof);
        return proof;
    }

    /** The root of the tree of {@code size} leaves. */
    public byte[] root(long size) {
        return size == 0 ? TreeHash.EMPTY_ROOT.clone() : hash(0, size);
    }

    private void path(long m, long lo, long hi, List<byte[]> out) {
        long n = hi - lo;
        if (n == 1) {
            return;
        }
        long k = split(n);
        if (m - lo < k) {
            path(m, lo, lo + k, out);
            out.add(hash(lo + k, hi));
        } else {
            path(m, lo + k, hi, out);
            out.add(hash(lo, lo + k));
        }
    }

    private void subproof(long m, long lo, long hi, boolean whole, List<byte[]> out) {
        long n = hi - lo;
        if (m == n) {
            if (!whole) {
                out.add(hash(lo, hi));
            }
            return;
        }
        long k = split(n);
        if (m <= k) {
            subproof(m, lo, lo + k, whole, out);
            out.add(hash(lo + k, hi));
        } else {
            subproof(m - k, lo + k, hi, false, out);
            out.add(hash(lo, lo + k));
        }
    }

    /** MTH of leaves [lo, hi): a stored complete subtree when the range is one, else folded from its parts. */
    private byte[] hash(long lo, long hi) {
        long n = hi - lo;
        if (Long.bitCount(n) == 1 && lo % n == 0) {
            int level = Long.numberOfTrailingZeros(n);
            return nodes.node(level, lo >>> level);
        }
        long k = split(n);
        return TreeHash.node(hash(lo, lo + k), hash(lo + k, hi));
    }

    /** The largest power of two below {@code n} (n > 1). */
    static long split(long n) {
        return Long.highestOneBit(n - 1);
    }
}
