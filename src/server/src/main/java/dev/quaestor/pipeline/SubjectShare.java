package dev.quaestor.pipeline;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One mount's bulkhead as each subject may hold it: at most {@link #places} provider calls of one subject in flight
 * on the mount at once, whatever kind of call (read, completion, listing). A subject holding none has no entry, so
 * the map is never larger than the number of subjects with a call under way, which the mount's bulkhead and the
 * server's bound of requests in flight limit.
 */
final class SubjectShare {

    private final int places;
    private final ConcurrentHashMap<String, Integer> held = new ConcurrentHashMap<>();

    /**
     * {@code share} (above 0, at most 1) of {@code bulkhead} places, at least one. Null when that is the whole
     * bulkhead: a share then adds nothing, and the bulkhead's own refusal applies.
     */
    static SubjectShare of(String mount, int bulkhead, double share) {
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("quaestor.mounts." + mount + ".subject-share must be above 0 and at most 1, not "
                    + share);
        }
        int places = Math.max(1, (int) Math.floor(bulkhead * share));
        return places >= bulkhead ? null : new SubjectShare(places);
    }

    SubjectShare(int places) {
        if (places < 1) {
            throw new IllegalArgumentException("a subject's share must be at least one place, not " + places);
        }
        this.places = places;
    }

    int places() {
        return places;
    }

    /** Takes one of the subject's places; false (nothing taken) if it holds all of them already. */
    boolean tryTake(String subject) {
        boolean[] taken = {false};
        held.compute(subject, (k, n) -> {
            int count = n == null ? 0 : n;
            if (count < places) {
                taken[0] = true;
                return count + 1;
            }
            return n;
        });
        return taken[0];
    }

    /** Gives back one of the subject's places; its entry goes with its last one. */
    void release(String subject) {
        held.computeIfPresent(subject, (k, n) -> n <= 1 ? null : n - 1);
    }

    /** The places the subject holds now. */
    int held(String subject) {
        return held.getOrDefault(subject, 0);
    }

    /** How many subjects hold a place now. */
    int subjects() {
        return held.size();
    }
}
