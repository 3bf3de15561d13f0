package dev.quaestor.policy.whatif;

import java.util.List;

/**
 * One fact replayed: how the proposed set changes its answer, the rules that decide it under each set, and whether
 * the revision it was recorded under gives the answer recorded.
 *
 * @param missing for a fact not judged, what the record lacks that decides it
 * @param mayGain for a fact not judged, whether some way it could have been gains access
 */
public record Replayed(Fact fact, Change change, List<String> rulesBefore, List<String> rulesAfter, List<String> missing,
        boolean mayGain, Check check) {

    public enum Change {
        /** The same answer under both sets, every way the fact could have been. */
        UNCHANGED,
        /** Denied now, allowed under the proposed set. */
        GAINED,
        /** Allowed now, denied under the proposed set. */
        LOST,
        /** The answer hangs on something the record does not hold. */
        NOT_JUDGED,
        /** A listing: judged entry by entry, its entries not recorded. */
        LISTING,
        /** Not a decision the engine made on this URI (refused before it was judged: an invalid or non-canonical URI). */
        NOT_REPLAYABLE
    }

    /** The fact's own decision replayed under the revision it was recorded with. */
    public enum Check {
        /** The recorded answer is what that revision gives (some way the fact could have been). */
        REPRODUCED,
        /** That revision gives another answer, every way the fact could have been. */
        MISMATCH,
        /** That revision's files are not at hand. */
        NO_REVISION,
        /** Not a judged decision (a listing, or not replayable). */
        NOT_CHECKED
    }

    public Replayed {
        rulesBefore = List.copyOf(rulesBefore);
        rulesAfter = List.copyOf(rulesAfter);
        missing = List.copyOf(missing);
    }
}
