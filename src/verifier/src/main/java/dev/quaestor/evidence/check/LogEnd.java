package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.check.SignedRoots.Signed;
import dev.quaestor.evidence.check.StoredNodes.Stored;

/**
 * What is checked once a log's records are all read: that none is missing at the end (no signed checkpoint or stored
 * node covers more records than the export holds); that a signed checkpoint vouches for the records (else an unsigned
 * log, or an unsigned tail unless it is accepted); and how far time-stamps vouch for them.
 */
final class LogEnd {

    /** The records checked: how many, the first and last (seq and line), and the line of the first after those signed. */
    record Span(long records, long firstSeq, long firstLine, long lastSeq, long lastLine, long tailLine) {
    }

    private final LogCheck check;
    private final SignedRoots roots;
    /** Whether records after the last matched checkpoint are accepted (a warning) rather than a problem. */
    private final boolean allowTail;
    /** Whether time-stamp tokens were checked (TSA roots were pinned). */
    private final boolean stamped;

    LogEnd(LogCheck check, boolean allowTail, boolean stamped) {
        this.check = check;
        this.roots = check.roots;
        this.allowTail = allowTail;
        this.stamped = stamped;
    }

    /** Records a checkpoint or a stored node covers after the last in the export: the log's break (a warning if partial). */
    void missing(Span s) {
        long covered = Math.max(roots.lastSize(), check.v1.lastPinned());
        if (covered > s.lastSeq) {
            Signed cp = roots.at(covered);
            long cpLine = cp != null ? cp.line() : check.v1.lineOf(covered);
            if (check.partial) {
                check.warn("log " + check.log + ": checkpoints up to " + Plain.n(covered) + " records cover records after the"
                        + " export's last (seq " + Plain.n(s.lastSeq) + "); they were not checked");
            } else {
                missingAtEnd(s, cpLine, covered, "a signed checkpoint (" + LogCheck.at(cpLine) + ") covers " + Plain.n(covered)
                        + " records" + (cp != null && cp.stamp() != null ? ", and a time-stamping authority (" + cp.stamp().tsa()
                        + ") saw that checkpoint at " + cp.stamp().time() : ""), cp != null ? Involved.checkpoint(covered, cpLine)
                        : Involved.v1Checkpoint(covered, cpLine));
                return;
            }
        }
        Stored beyond = !check.partial ? check.nodes.beyond(s.lastSeq) : null;
        if (beyond != null) {
            missingAtEnd(s, beyond.line(), beyond.last(), "its stored node on line " + Plain.n(beyond.line()) + " covers records "
                    + Plain.n(beyond.first()) + " to " + Plain.n(beyond.last()), Involved.node(beyond.first(), beyond.last(), beyond.line()));
        }
    }

    private void missingAtEnd(Span s, long line, long covered, String but, Involved involved) {
        String log = check.log;
        check.fail(Kind.MISSING, s.lastSeq + 1, line, (s.records == 0 && s.lastSeq == 0 ? "log " + log + " is missing: the export"
                + " holds none of its records" : "records are missing at the end of log " + log + ": the export ends at seq "
                + Plain.n(s.lastSeq)) + ", but " + but, "records up to seq " + Plain.n(covered), "the last record is seq "
                + Plain.n(s.lastSeq), involved);
    }

    /**
     * Records no signature covers: a problem if none is or no checkpoint was checked; a tail, unless accepted.
     *
     * @param rebuilt whether the records' tree could be rebuilt (else their checkpoints could not be compared)
     * @param refused whether some of the log's checkpoints were refused (then an unsigned tail says nothing new)
     */
    void unsigned(Span s, boolean rebuilt, boolean refused) {
        String log = check.log;
        long firstSeq = s.firstSeq;
        long lastSeq = s.lastSeq;
        long from = Math.max(roots.signedThrough, firstSeq - 1) + 1;
        String range = "(seq " + Plain.n(from) + " to " + Plain.n(lastSeq) + ")";
        Involved first = Involved.record(from, from == firstSeq ? s.firstLine : s.tailLine);
        Involved[] lines = from == lastSeq ? new Involved[] {first} : new Involved[] {first, Involved.record(lastSeq, s.lastLine)};
        if (!rebuilt && !roots.isEmpty() && roots.lastSize() > firstSeq - 1) {
            check.problem(Problem.of(Kind.UNSIGNED_LOG, log, firstSeq, s.firstLine, "the checkpoints of log " + log + " could not be"
                    + " checked: the export holds neither the records before seq " + Plain.n(firstSeq) + " nor their stored nodes,"
                    + " so no signature vouches for its records" + (from > lastSeq ? "" : " " + range), "the records before seq "
                    + Plain.n(firstSeq) + " or their stored nodes", "neither", lines));
        } else if (refused || from > lastSeq) {
            return; // a refused checkpoint is a problem already
        } else if (from == firstSeq) {
            check.problem(Problem.of(Kind.UNSIGNED_LOG, log, from, s.firstLine, "no signed checkpoint covers the records of log " + log
                    + " " + range + ": they are in order and match their hashes, but nothing signed vouches for them",
                    "a checkpoint signed by a trusted key that matches the records", "none", lines));
        } else if (allowTail) {
            check.warn("log " + log + ": the last " + Plain.n(lastSeq - from + 1) + " record(s) " + range + " are not yet"
                    + " covered by a signed checkpoint: they are in order and match their hashes, but nothing signed vouches for"
                    + " them yet (accepted with --allow-unsigned-tail)");
        } else {
            check.problem(Problem.of(Kind.UNSIGNED_TAIL, log, from, lines[0].line(), "the last " + Plain.n(lastSeq - from + 1)
                    + " record(s) of log " + log + " " + range + " are covered by no signed checkpoint: they are in order and match"
                    + " their hashes, but nothing signed vouches for them. Export again once the server has signed them (it signs"
                    + " a checkpoint every quaestor.audit.checkpoint-every records or quaestor.audit.checkpoint-interval), or"
                    + " accept them with --allow-unsigned-tail", "records signed up to seq " + Plain.n(lastSeq), "signed up to seq "
                    + Plain.n(roots.signedThrough), lines));
        }
    }

    /** When time-stamps were checked: a warning if none vouches for the records, or not for the last of them. */
    void unstamped(Span s) {
        String log = check.log;
        if (stamped && s.records > 0 && roots.anchors == 0) {
            check.warn("log " + log + ": no checkpoint of its records carries a valid time-stamp token: only the log's own"
                    + " signing key vouches for them");
        } else if (stamped && s.records > 0 && s.lastSeq > roots.anchoredThrough) {
            check.warn("log " + log + ": time-stamps vouch for records up to seq " + Plain.n(roots.anchoredThrough) + " ("
                    + roots.anchoredBy.tsa() + " saw them by " + roots.anchoredBy.time() + "); the last "
                    + Plain.n(s.lastSeq - roots.anchoredThrough) + " record(s) rest on the log's signing key alone: whoever holds"
                    + " it could have rewritten or removed them, and an export would not show it");
        }
    }
}
