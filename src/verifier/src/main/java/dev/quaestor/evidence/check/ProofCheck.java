package dev.quaestor.evidence.check;

import dev.quaestor.evidence.TreeHash;
import java.security.MessageDigest;
import java.util.List;

/** Checks inclusion and consistency proofs exactly as RFC 9162 §2.1.3.2 and §2.1.4.2 state the steps. */
public final class ProofCheck {

    /** Longer paths cannot belong to a tree of at most 2^63 leaves. */
    public static final int MAX_PATH = 64;

    private ProofCheck() {
    }

    /** Whether {@code leafHash} is leaf {@code index} of the tree of {@code size} leaves whose root is {@code root}. */
    public static boolean inclusion(long index, long size, byte[] leafHash, List<byte[]> path, byte[] root) {
        if (index < 0 || index >= size || path.size() > MAX_PATH || !allHashes(path) || leafHash.length != 32) {
            return false;
        }
        byte[][] r = walk(index, size - 1, leafHash, path);
        return r != null && MessageDigest.isEqual(r[1], root);
    }

    /** Whether the tree of {@code first} leaves (root {@code firstRoot}) is a prefix of the tree of {@code second}. */
    public static boolean consistency(long first, byte[] firstRoot, long second, byte[] secondRoot, List<byte[]> path) {
        if (first < 0 || first > second || path.size() > MAX_PATH || !allHashes(path)) {
            return false;
        }
        if (first == second) {
            return path.isEmpty() && MessageDigest.isEqual(firstRoot, secondRoot);
        }
        if (first == 0) {
            // Every tree extends the empty one; there is nothing to prove.
            return path.isEmpty() && MessageDigest.isEqual(firstRoot, TreeHash.EMPTY_ROOT);
        }
        if (path.isEmpty()) {
            return false;
        }
        var proof = new java.util.ArrayList<byte[]>(path.size() + 1);
        if ((first & (first - 1)) == 0) {
            proof.add(firstRoot);
        }
        proof.addAll(path);
        long fn = first - 1;
        long sn = second - 1;
        while ((fn & 1) == 1) {
            fn >>>= 1;
            sn >>>= 1;
        }
        byte[][] r = walk(fn, sn, proof.get(0), proof.subList(1, proof.size()));
        return r != null && MessageDigest.isEqual(r[0], firstRoot) && MessageDigest.isEqual(r[1], secondRoot);
    }

    /**
     * The loop both verifications share: folds {@code path} into {@code start} from node {@code fn} of {@code sn}; returns
     * {fr, sr} (inclusion's result is sr), or null if the path does not end at the root (sn must reach 0, and only then).
     */
    private static byte[][] walk(long fn, long sn, byte[] start, List<byte[]> path) {
        byte[] fr = start;
        byte[] sr = start;
        for (byte[] c : path) {
            if (sn == 0) {
                return null;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = TreeHash.node(c, fr);
                sr = TreeHash.node(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>>= 1;
                    sn >>>= 1;
                }
            } else {
                sr = TreeHash.node(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 ? new byte[][] {fr, sr} : null;
    }

    private static boolean allHashes(List<byte[]> path) {
        return path.stream().allMatch(p -> p != null && p.length == 32);
    }
}
