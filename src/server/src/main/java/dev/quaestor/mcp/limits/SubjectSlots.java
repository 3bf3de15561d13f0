package dev.quaestor.mcp.limits;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many of one kind of place each subject holds, each at most {@code cap}. A subject holding none has no entry,
 * so the map is as large as the number of subjects holding a place, which the places' own global bound limits.
 */
public final class SubjectSlots {

    private final int cap;
    private final ConcurrentHashMap<String, AtomicInteger> held = new ConcurrentHashMap<>();

    public SubjectSlots(int cap) {
        if (cap < 1) {
            throw new IllegalArgumentException("a per-subject cap must be at least 1, not " + cap);
        }
        this.cap = cap;
    }

    public int cap() {
        return cap;
    }

    /** Takes one of the subject's places; false (nothing taken) if it holds its cap already. */
    public boolean tryTake(String subject) {
        boolean[] taken = {false};
        held.compute(subject, (k, n) -> {
            AtomicInteger count = n == null ? new AtomicInteger() : n;
            if (count.get() < cap) {
                count.incrementAndGet();
                taken[0] = true;
            }
            return count.get() == 0 ? null : count;
        });
        return taken[0];
    }

    /** Takes a place whatever the cap (one that replaces a place about to be given back). */
    public void take(String subject) {
        held.compute(subject, (k, n) -> {
            AtomicInteger count = n == null ? new AtomicInteger() : n;
            count.incrementAndGet();
            return count;
        });
    }

    /** Gives back one of the subject's places. */
    public void release(String subject) {
        held.computeIfPresent(subject, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
    }

    /** The places the subject holds now. */
    int held(String subject) {
        AtomicInteger n = held.get(subject);
        return n == null ? 0 : n.get();
    }
}
