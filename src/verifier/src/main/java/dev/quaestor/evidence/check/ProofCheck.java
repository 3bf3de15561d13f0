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
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : path) {
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = TreeHash.node(p, r);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                r = TreeHash.node(r, p);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return sn == 0 && MessageDigest.isEqual(r, root);
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
        byte[] fr = proof.get(0);
        byte[] sr = proof.get(0);
        for (int i = 1; i < proof.size(); i++) {
            byte[] c = proof.get(i);
            if (sn == 0) {
                return false;
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = TreeHash.node(c, fr);
                sr = TreeHash.node(c, sr);
                if ((fn & 1) == 0) {
                    while ((fn & 1) == 0 && fn != 0) {
                        fn >>>= 1;
                        sn >>>= 1;
                    }
                }
            } else {
                sr = TreeHash.node(sr, c);
            }
            fn >>>= 1;
            sn >>>= 1;
        }
        return MessageDigest.isEqual(fr, firstRoot) && MessageDigest.isEqual(sr, secondRoot) && sn == 0;
    }

    private static boolean allHashes(List<byte[]> path) {
        return path.stream().allMatch(p -> p != null && p.length == 32);
    }
}
