package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * One log's stored nodes, compared with the records' tree as it grows; one that does not match stays a suspect until
 * the next signed checkpoint says whether it or its records were changed ({@link LogCheck}).
 */
final class StoredNodes {

    /** A stored node: the hash of records {@code first()} to {@code last()}. */
    record Stored(int level, long index, byte[] hash, long line) {

        long first() {
            return (index << level) + 1;
        }

        long last() {
            return (index + 1) << level;
        }
    }

    /** A node that did not match its records, and the hash the records give. */
    record Suspect(Stored node, byte[] computed) {
    }

    /** Node indexes are kept below this, so that (level, index) fits one long. */
    private static final long MAX_INDEX = 1L << 57;

    private final Map<Long, Stored> byKey = new HashMap<>();
    private boolean leaves;
    private final Frontier.CompletedNode onCompleted = this::compare;
    long checked;
    /** The first node that did not match its records, not yet settled by a checkpoint. */
    Suspect suspect;

    /** Adds a node; false if its hash or position is not valid. */
    boolean add(int level, long index, String hash, long line) {
        if (!Hex.isHash(hash) || index >= MAX_INDEX >>> level) {
            return false;
        }
        byKey.put(key(level, index), new Stored(level, index, Hex.hash(hash), line));
        leaves |= level == 0;
        return true;
    }

    /** Compares the leaf of record {@code seq} with its stored node, if there is one. */
    void leaf(long seq, byte[] leaf) {
        if (leaves) {
            compare(0, seq - 1, leaf);
        }
    }

    /** What hears of the subtrees an append completes; null once no stored node is left to compare. */
    Frontier.CompletedNode sink() {
        return byKey.isEmpty() ? null : onCompleted;
    }

    private void compare(int level, long index, byte[] hash) {
        Stored n = byKey.remove(key(level, index));
        if (n != null) {
            checked++;
            if (suspect == null && !java.util.Arrays.equals(n.hash, hash)) {
                suspect = new Suspect(n, hash);
            }
        }
    }

    /** The suspect, now settled by a caller; null if none. */
    Suspect takeSuspect() {
        Suspect s = suspect;
        suspect = null;
        return s;
    }

    /** A node that covers records after {@code lastSeq}, or null. */
    Stored beyond(long lastSeq) {
        return byKey.values().stream().filter(n -> n.last() > lastSeq).findFirst().orElse(null);
    }

    /** The tree of the first {@code size} records, from stored nodes (and the last leaf, if known); null if they are missing. */
    Frontier prefix(long size, String lastLeafHex) {
        try {
            return Frontier.of(size, (level, index) -> {
                Stored n = byKey.get(key(level, index));
                if (n != null) {
                    return n.hash;
                }
                if (level == 0 && index == size - 1 && Hex.isHash(lastLeafHex)) {
                    return Hex.hash(lastLeafHex);
                }
                throw new NoSuchElementException();
            });
        } catch (NoSuchElementException e) {
            return null;
        }
    }

    /** The level in the top bits, so that the index's low bits spread the keys over a hash map. */
    private static long key(int level, long index) {
        return (long) level << 57 | index;
    }
}
