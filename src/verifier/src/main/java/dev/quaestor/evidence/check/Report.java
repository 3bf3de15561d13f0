package dev.quaestor.evidence.check;

import java.time.Instant;
import java.util.List;

/** What a verification found: a summary per log, the problems (none if it verified) and warnings. */
public record Report(List<Summary> logs, List<Problem> problems, List<String> warnings) {

    /**
     * One log: records read, matched signed checkpoints, how far signatures vouch ({@code signedThrough}), time-stamped
     * checkpoints and how far the latest vouches ({@code anchoredThrough}, seen at {@code anchoredAt}; 0 and null: none
     * or not checked), records archived before the export (0: none), stored nodes compared, and the largest time between
     * a record's time and the first time-stamp covering it ({@code anchorGap}, null if none), that of record {@code anchorGapSeq}.
     */
    public record Summary(String log, long records, long firstSeq, long lastSeq, String formats, int checkpoints,
            long signedThrough, int anchors, long anchoredThrough, Instant anchoredAt, long archivedThrough, long nodes,
            boolean broken, java.time.Duration anchorGap, long anchorGapSeq) {

        /** Records after the last one a signed checkpoint covers. */
        public long unsignedTail() {
            return records == 0 ? 0 : Math.max(0, lastSeq - Math.max(signedThrough, firstSeq - 1));
        }

        /** Records after the last one a time-stamped checkpoint covers: what rests on the signing key alone. */
        public long unanchoredTail() {
            return records == 0 ? 0 : Math.max(0, lastSeq - Math.max(anchoredThrough, firstSeq - 1));
        }
    }

    public boolean ok() {
        return problems.isEmpty();
    }

    public long records() {
        return logs.stream().mapToLong(Summary::records).sum();
    }

    /** The records a signed checkpoint covers: all but the logs' unsigned tails. */
    public long covered() {
        return logs.stream().mapToLong(s -> s.broken() ? 0 : s.records() - s.unsignedTail()).sum();
    }
}
