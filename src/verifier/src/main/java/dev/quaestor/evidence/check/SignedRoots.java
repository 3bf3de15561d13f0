package dev.quaestor.evidence.check;

import java.util.TreeMap;

/**
 * One log's verified checkpoints by size, and how far they vouch: each whose root matched the records' tree
 * ({@link LogCheck}) is counted; a verified time-stamp extends how far the TSA vouches ({@code anchoredThrough}).
 */
final class SignedRoots {

    /** A verified checkpoint: when it says it was signed (null: it does not say), and its verified time-stamp, if any. */
    record Signed(long size, byte[] root, long line, java.time.Instant time, TimeStampCheck.Stamp stamp) {
    }

    private final TreeMap<Long, Signed> bySize = new TreeMap<>();
    /** The size of the next checkpoint the records reach. */
    private long next = Long.MAX_VALUE;
    int matched;
    long lastMatched;
    long signedThrough;
    int anchors;
    long anchoredThrough;
    TimeStampCheck.Stamp anchoredBy;

    /** Adds {@code cp}; returns an earlier checkpoint of its size, which is kept instead (null if none). */
    Signed add(Signed cp) {
        return bySize.putIfAbsent(cp.size, cp);
    }

    Signed at(long size) {
        return bySize.get(size);
    }

    boolean isEmpty() {
        return bySize.isEmpty();
    }

    long lastSize() {
        return bySize.isEmpty() ? 0 : bySize.lastKey();
    }

    /** Whether the records have reached the size of the next checkpoint. */
    boolean due(long size) {
        return size == next;
    }

    /** The records are past {@code size}: the next checkpoint to compare is the first larger one. */
    void passed(long size) {
        Long k = bySize.higherKey(size);
        next = k == null ? Long.MAX_VALUE : k;
    }

    /** {@code cp} matched the records up to its size. */
    void matched(Signed cp) {
        matched++;
        lastMatched = cp.size;
        signedThrough = Math.max(signedThrough, cp.size);
        if (cp.stamp != null) {
            anchors++;
            anchoredThrough = cp.size;
            anchoredBy = cp.stamp;
        }
    }
}
