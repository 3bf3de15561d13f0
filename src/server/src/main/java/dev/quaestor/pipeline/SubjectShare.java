package dev.quaestor.pipeline;

import java.util.HashMap;

/**
 * One mount's bulkhead as each subject may hold it. A subject within its share ({@link #places} provider calls in
 * flight on the mount, whatever kind: read, completion, listing) is let through to the bulkhead; one past its share
 * only while a share's worth of the bulkhead would stay free for everyone else. So a subject alone on a mount may use
 * most of it (a busy service account is not held to a quarter of an idle mount), and one keeping slow calls open never
 * leaves another subject without a place. A subject holding none has no entry, so the map is never larger than the
 * number of subjects with a call under way.
 */
final class SubjectShare {

    private final int places;
    private final int bulkhead;
    /** Guarded by this: the places each subject holds, and all of them together. */
    private final HashMap<String, Integer> held = new HashMap<>();
    private int total;

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
        return places >= bulkhead ? null : new SubjectShare(places, bulkhead);
    }

    SubjectShare(int places, int bulkhead) {
        if (places < 1 || places >= bulkhead) {
            throw new IllegalArgumentException("a subject's share must be at least one place and less than the bulkhead ("
                    + bulkhead + "), not " + places);
        }
        this.places = places;
        this.bulkhead = bulkhead;
    }

    int places() {
        return places;
    }

    /**
     * Takes one of the subject's places; false (nothing taken) if it holds its share already and one more would leave
     * less than a share of the bulkhead free.
     */
    synchronized boolean tryTake(String subject) {
        int count = held.getOrDefault(subject, 0);
        if (count >= places && total + 1 > bulkhead - places) {
            return false;
        }
        held.put(subject, count + 1);
        total++;
        return true;
    }

    /** Gives back one of the subject's places; its entry goes with its last one. */
    synchronized void release(String subject) {
        Integer n = held.get(subject);
        if (n == null) {
            return;
        }
        if (n <= 1) {
            held.remove(subject);
        } else {
            held.put(subject, n - 1);
        }
        total--;
    }

    /** The places the subject holds now. */
    synchronized int held(String subject) {
        return held.getOrDefault(subject, 0);
    }

    /** How many subjects hold a place now. */
    synchronized int subjects() {
        return held.size();
    }
}
