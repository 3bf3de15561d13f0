package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.check.SignedRoots.Signed;
import java.time.Duration;
import java.time.Instant;

/**
 * The records' times against the checkpoints that cover them: no record may be dated after the checkpoint that first
 * covers it was signed (beyond {@link #SKEW}); the largest time between a record's time and the first time-stamp that
 * covers it goes into the log's summary, and past --max-anchor-gap it is a problem, as is no time-stamp covering any.
 */
final class RecordDates {

    /** How much later than the checkpoint that first covers it a record may be dated: the writer's clock stepping back. */
    static final Duration SKEW = Duration.ofMinutes(1);

    private final LogCheck check;
    /** Past this, a record's time before the first time-stamp covering it is a problem; null: only reported. */
    private final Duration maxGap;
    /** The latest record time since the last checkpoint reached, and the earliest since the last time-stamped one. */
    private Instant latest;
    private long latestSeq;
    private long latestLine;
    private Instant earliest;
    private long earliestSeq;
    private boolean datedAfter;
    private boolean gapTooLong;
    /** The largest time between a record's time and the first time-stamp covering it, and that record. */
    private Duration gap;
    private long gapSeq;

    RecordDates(LogCheck check, Duration maxGap) {
        this.check = check;
        this.maxGap = maxGap;
    }

    /** Record {@code seq} on {@code line} is dated {@code time}. */
    void dated(String time, long seq, long line) {
        Instant t = RecordTime.parse(time); // null if not a time: nothing to compare
        if (t != null && (latest == null || t.isAfter(latest))) {
            latest = t;
            latestSeq = seq;
            latestLine = line;
        }
        if (t != null && (earliest == null || t.isBefore(earliest))) {
            earliest = t;
            earliestSeq = seq;
        }
    }

    /**
     * {@code cp} matched, and is the first checkpoint to cover the records since the one before: none may be dated after
     * it (beyond {@link #SKEW}); if it is time-stamped, how long before the TSA saw it the earliest of them is dated.
     */
    void covered(Signed cp) {
        String log = check.log;
        if (latest != null && cp.time() != null && latest.isAfter(cp.time().plus(SKEW)) && !datedAfter) {
            datedAfter = true;
            check.problem(Problem.of(Kind.DATED_AFTER_CHECKPOINT, log, latestSeq, latestLine, check.record(latestSeq, latestLine)
                    + " is dated " + latest + ", after the checkpoint that first covers it was signed (" + cp.time() + ", "
                    + LogCheck.at(cp.line()) + "): a checkpoint cannot sign a record from its future: the record's time, or the checkpoint's, is not true",
                    "a time no later than " + cp.time() + " (with " + TimeStampCheck.words(SKEW) + " for the clock)", latest.toString(),
                    Involved.record(latestSeq, latestLine), Involved.checkpoint(cp.size(), cp.line())));
        }
        latest = null;
        if (cp.stamp() == null || earliest == null) {
            return;
        }
        Duration d = Duration.between(earliest, cp.stamp().time());
        d = d.isNegative() ? Duration.ZERO : d;
        if (gap == null || d.compareTo(gap) > 0) {
            gap = d;
            gapSeq = earliestSeq;
            if (maxGap != null && d.compareTo(maxGap) > 0 && !gapTooLong) {
                gapTooLong = true;
                check.problem(Problem.of(Kind.ANCHOR_GAP, log, earliestSeq, cp.line(), "record " + Plain.n(earliestSeq) + " of log "
                        + log + " is dated " + earliest + ", " + TimeStampCheck.words(d) + " before the first time-stamp that"
                        + " covers it (" + cp.stamp().tsa() + " saw the checkpoint at " + Plain.n(cp.size()) + " records, line "
                        + Plain.n(cp.line()) + ", at " + cp.stamp().time() + "): more than --max-anchor-gap allows: it may have been"
                        + " written long after the time it bears", "at most " + TimeStampCheck.words(maxGap),
                        TimeStampCheck.words(d), Involved.checkpoint(cp.size(), cp.line())));
            }
        }
        earliest = null;
    }

    /** At the end, when no time-stamp covers any of the records (the first is {@code firstSeq}, on {@code firstLine}). */
    void noneStamped(long firstSeq, long firstLine) {
        if (maxGap != null) {
            check.problem(Problem.of(Kind.ANCHOR_GAP, check.log, firstSeq, firstLine, "no time-stamp covers any record of log "
                    + check.log + ", so nothing bounds how long after their time they were written (--max-anchor-gap)",
                    "at most " + TimeStampCheck.words(maxGap), "no time-stamp", Involved.record(firstSeq, firstLine)));
        }
    }

    Duration gap() {
        return gap;
    }

    long gapSeq() {
        return gapSeq;
    }
}
