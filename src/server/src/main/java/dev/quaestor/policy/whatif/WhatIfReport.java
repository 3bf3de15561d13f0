package dev.quaestor.policy.whatif;

import java.time.Instant;
import java.util.List;

/**
 * What a proposed policy set would have changed over a window of recorded history: who gains and who loses access
 * to what, with the rule deciding under each set and the requests affected; what could not be judged and why; the
 * same by role and URI prefix; the guards a gain crosses; and the check that each recorded decision is what its
 * revision gives. {@code namesWithheld}: the rows name no subject, URI or request ({@link NamelessReport}).
 */
public record WhatIfReport(Summary summary, List<Row> gained, List<Row> lost, List<Undecided> notJudged,
        List<PrefixTally> byPrefix, List<RoleTally> byRole, List<GuardHit> guardHits, RevisionCheck check,
        boolean namesWithheld) {

    /**
     * @param records requests in the window's facts; {@code facts} how many distinct facts they make, each replayed once
     * @param listingRecords listings (recorded as one {@code FILTER} decision without their entries): not judged
     * @param notReplayableRecords refused before the policy judged them (an invalid or non-canonical URI)
     */
    public record Summary(String currentRevision, String proposedRevision, Instant from, Instant to, long records,
            long facts, long unchangedRecords, long listingRecords, long listingFacts, long notReplayableRecords) {
    }

    /** One subject's changed answer on one URI. */
    public record Row(String subject, String action, String uri, String prefix, List<String> roles, long requests,
            List<String> rulesBefore, List<String> rulesAfter, List<String> examples) {

        public Row withExamples(List<String> ids) {
            return new Row(subject, action, uri, prefix, roles, requests, rulesBefore, rulesAfter, ids);
        }
    }

    /** A subject's requests on a URI whose answer hangs on {@code missing}; {@code mayGain} if some way gains access. */
    public record Undecided(String subject, String action, String uri, String prefix, List<String> roles, long requests,
            List<String> missing, boolean mayGain) {
    }

    /** Requests and distinct subjects per change ({@code gained}, {@code lost}, {@code not judged}) and URI prefix. */
    public record PrefixTally(String change, String prefix, long requests, long subjects) {
    }

    /** Requests per change, recorded roles and URI prefix: what a pull request may show (no subject, no request id). */
    public record RoleTally(String change, String roles, String prefix, long requests) {
    }

    /** A guard that a gain (or a possible gain, not judged) crosses. */
    public record GuardHit(String guard, String origin, String change, String action, String uri, String subject,
            long requests) {
    }

    /**
     * Each recorded decision replayed under the revision it was recorded with.
     *
     * @param records requests checked; {@code mismatched} of them got another answer
     * @param withoutRevision requests recorded under a revision whose files are not at hand ({@code missingRevisions})
     */
    public record RevisionCheck(long records, long reproduced, long mismatched, long withoutRevision,
            List<String> missingRevisions, List<Mismatch> mismatches) {
    }

    public record Mismatch(String subject, String action, String uri, String revision, String recorded, long requests) {
    }

    /** The same report with the example request ids {@code ids} gives each gained and lost row. */
    public WhatIfReport withExamples(java.util.function.Function<Row, List<String>> ids) {
        return new WhatIfReport(summary, gained.stream().map(r -> r.withExamples(ids.apply(r))).toList(),
                lost.stream().map(r -> r.withExamples(ids.apply(r))).toList(), notJudged, byPrefix, byRole, guardHits, check,
                namesWithheld);
    }

    /** Whether a change crosses a guard: what-if then fails, so CI can block the merge. */
    public boolean guardCrossed() {
        return !guardHits.isEmpty();
    }
}
