package dev.quaestor.evidence.check;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.check.SignedRoots.Signed;
import dev.quaestor.evidence.check.StoredNodes.Stored;
import dev.quaestor.evidence.check.StoredNodes.Suspect;
import dev.quaestor.evidence.v1.V1Chain;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The checks of one log, fed in export order (verified checkpoints, archive markers, stored nodes, then records): where
 * the records start (seq 1, after an archive marker a signed checkpoint vouches for, or anywhere in a partial export),
 * that each seq follows the one before, that none is missing at the end. Each record is checked against its hash
 * ({@link RecordHashes}) and appended to the tree, which is compared with each stored node it completes
 * ({@link StoredNodes}) and each signed root at its size ({@link SignedRoots}). It stops at the first broken record.
 */
final class LogCheck {

    private record Marker(long seq, String hash, long line) {
    }

    final String log;
    private final boolean partial;
    /** Whether records after the last matched checkpoint are accepted (a warning) rather than a problem. */
    private final boolean allowTail;
    /** Whether time-stamp tokens were checked (TSA roots were pinned). */
    private final boolean stamped;
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<Marker> markers = new ArrayList<>();
    /** Checkpoints the person verifying kept (--expect-checkpoint): each on line 0. */
    private final List<Signed> kept = new ArrayList<>();
    private final SignedRoots roots = new SignedRoots();
    private final StoredNodes nodes = new StoredNodes();
    private final RecordHashes hashes = new RecordHashes(this, roots);
    private final V1Chain v1 = hashes.v1;

    private Problem broken;
    private boolean started;
    /** The tree of the records so far; null when it cannot be rebuilt (the export starts mid-log without nodes). */
    private Frontier tree;
    private long firstSeq;
    private long firstLine;
    private long lastSeq;
    private long lastLine;
    /** The line of the first record after those signed so far. */
    private long tailLine;
    private long records;
    private long archivedThrough;

    /** How much later than the checkpoint that first covers it a record may be dated: the writer's clock stepping back. */
    static final Duration SKEW = Duration.ofMinutes(1);
    /** Past this, a record's time before the first time-stamp covering it is a problem; null: only reported. */
    private final Duration maxGap;
    /** The latest record time since the last checkpoint reached, and the earliest since the last time-stamped one. */
    private Instant latest;
    private long latestSeq;
    private long latestLine;
    private Instant earliest;
    private long earliestSeq;
    private boolean datedAfter;
    /** The largest time between a record's time and the first time-stamp covering it, and that record. */
    private Duration gap;
    private long gapSeq;

    LogCheck(String log, boolean partial, boolean allowTail, boolean stamped, Duration maxGap) {
        this.log = log;
        this.partial = partial;
        this.allowTail = allowTail;
        this.stamped = stamped;
        this.maxGap = maxGap;
    }

    // ---- what comes before the records ----

    /** A checkpoint whose signature and origin were verified, signed at {@code time}; {@code stamp}: its verified time-stamp, or null. */
    void checkpoint(long size, byte[] root, long line, Instant time, TimeStampCheck.Stamp stamp) {
        if (started && size <= lastSeq && roots.at(size) == null) {
            misplaced("checkpoint", line);
            return;
        }
        var cp = new Signed(size, root, line, time, stamp);
        Signed earlier = roots.add(cp);
        if (earlier != null && !java.util.Arrays.equals(earlier.root(), root)) {
            problems.add(Problem.of(Kind.SPLIT_VIEW, log, size, line, "two signed checkpoints of log " + log + " for "
                    + Plain.n(size) + " records (lines " + Plain.n(earlier.line()) + " and " + Plain.n(line) + ") have different"
                    + " roots: two different histories of the log were signed", base64(earlier.root()), base64(cp.root()),
                    Involved.checkpoint(size, earlier.line()), Involved.checkpoint(size, line)));
        }
        if (started && earlier == null) {
            roots.passed(lastSeq);
        }
    }

    /** A version-1 checkpoint, verified: it pins the stored hash of record {@code seq}. */
    void pin(long seq, String hash, long line) {
        if (v1.isPinned(seq)) {
            V1Chain.Break conflict = v1.conflict(seq, hash, line, log);
            if (conflict != null) {
                problems.add(Problem.of(Kind.SPLIT_VIEW, log, seq, line, conflict.message(), conflict.expected(), conflict.found(),
                        new Involved("version-1 checkpoint of record " + seq, conflict.checkpointLine()),
                        new Involved("version-1 checkpoint of record " + seq, line)));
            }
        } else if (started && seq <= lastSeq) {
            misplaced("checkpoint", line);
        } else {
            v1.pin(seq, hash, line);
        }
    }

    void expect(Checkpoint cp) {
        kept.add(new Signed(cp.size(), cp.root(), 0, cp.time(), null));
    }

    void marker(long seq, String hash, long line) {
        if (started) {
            misplaced("archive marker", line);
        } else {
            markers.add(new Marker(seq, hash, line));
        }
    }

    void node(int level, long index, String hash, long line) {
        if (started) {
            misplaced("stored node", line);
        } else if (!nodes.add(level, index, hash, line)) {
            problems.add(Problem.of(Kind.NODE_DAMAGED, log, 0, line, "the stored node on line " + Plain.n(line) + " of log " + log
                    + " is damaged: its hash or position is not valid", "a SHA-256 in lowercase hex, at an index below 2^"
                    + (57 - level), "hash " + hash + " at level " + level + ", index " + Plain.n(index), new Involved("stored node", line)));
        }
    }

    private void misplaced(String what, long line) {
        problems.add(Problem.of(Kind.MISPLACED_LINE, log, 0, line, "the " + what + " on line " + Plain.n(line) + " of log " + log
                + " comes after records it concerns; an export lists checkpoints, markers and nodes before the records",
                "before line " + Plain.n(firstLine) + " (the log's first record)", "line " + Plain.n(line),
                new Involved(what, line), Involved.record(firstSeq, firstLine)));
    }

    /** A problem that does not stop the records' checks (a time-stamp that does not vouch for its checkpoint). */
    void problem(Problem p) {
        problems.add(p);
    }

    // ---- the records ----

    void record(CanonicalRecord r, String storedHash, long line) {
        records++;
        if (broken != null) {
            return; // the first break is reported; what follows it is not evidence of anything more
        }
        long seq = Decimal.parse(r.seq());
        if (seq < 1) {
            fail(Kind.RECORD_DAMAGED, 0, line, "the record on line " + Plain.n(line) + " of log " + log + " has no valid seq (\""
                    + r.seq() + "\"): it was damaged", "a seq of 1 or more", "\"" + r.seq() + "\"", new Involved("record", line));
            return;
        }
        if (!started && !start(seq, line)) {
            return;
        }
        if (seq != lastSeq + 1) {
            order(seq, line);
            return;
        }
        byte[] leaf = hashes.leaf(r, storedHash, seq, line);
        if (leaf == null) {
            return;
        }
        if (seq == roots.signedThrough + 1) {
            tailLine = line;
        }
        lastSeq = seq;
        lastLine = line;
        dated(r.time(), seq, line);
        if (tree != null) {
            nodes.leaf(seq, leaf);
            tree.append(leaf, nodes.sink());
            if (roots.due(seq)) {
                compareRoot(seq, line);
            }
        }
    }

    private void order(long seq, long line) {
        if (seq <= lastSeq) {
            String before = lastSeq == archivedThrough && records == 1 ? "the archive marker at seq " + Plain.n(lastSeq)
                    : "seq " + Plain.n(lastSeq);
            fail(Kind.OUT_OF_ORDER, seq, line, "records of log " + log + " are out of order or repeated: seq " + Plain.n(seq)
                    + " (line " + Plain.n(line) + ") comes after " + before, "seq " + Plain.n(lastSeq + 1), "seq " + Plain.n(seq),
                    Involved.record(seq, line));
        } else if (lastSeq == 0 && !partial) {
            fail(Kind.MISSING, 1, line, "records are missing from log " + log + ": its first record is seq " + Plain.n(seq)
                    + " (line " + Plain.n(line) + "), not 1 (if the export covers only part of the log, say --partial)", "seq 1",
                    "seq " + Plain.n(seq), Involved.record(seq, line));
        } else {
            fail(Kind.MISSING, lastSeq + 1, line, "records are missing from log " + log + ": seq " + Plain.n(seq) + " (line "
                    + Plain.n(line) + ") follows seq " + Plain.n(lastSeq) + (seq == lastSeq + 2 ? "; record "
                    + Plain.n(lastSeq + 1) + " is gone" : "; records " + Plain.n(lastSeq + 1) + " to " + Plain.n(seq - 1)
                    + " are gone"), "seq " + Plain.n(lastSeq + 1), "seq " + Plain.n(seq), Involved.record(seq, line));
        }
    }

    /** The tree has reached a checkpoint's size: its root must be the signed one. */
    private void compareRoot(long size, long line) {
        Signed cp = roots.at(size);
        roots.passed(size);
        byte[] root = tree.root();
        Suspect s = nodes.takeSuspect();
        if (java.util.Arrays.equals(root, cp.root())) {
            roots.matched(cp);
            covered(cp);
            if (s != null) {
                Stored n = s.node();
                fail(Kind.NODE_MISMATCH, n.first(), n.line(), "the stored node on line " + Plain.n(n.line()) + " (records "
                        + Plain.n(n.first()) + " to " + Plain.n(n.last()) + " of log " + log + ") was changed: it does not match"
                        + " those records, which match the signed checkpoint at " + Plain.n(size) + " records (line "
                        + Plain.n(cp.line()) + ")", Hex.of(s.computed()), Hex.of(n.hash()), Involved.node(n.first(), n.last(),
                        n.line()), Involved.checkpoint(size, cp.line()));
            }
            return;
        }
        long from = s != null ? s.node().first() : roots.lastMatched + 1;
        long to = s != null ? s.node().last() : size;
        fail(Kind.ROOT_MISMATCH, size, line, "the checkpoint at " + Plain.n(size) + " records (" + at(cp.line())
                + ") does not match the records of log " + log + ": a record between " + Plain.n(from) + " and " + Plain.n(to)
                + " was changed, inserted or removed (found at record " + Plain.n(size) + ", line " + Plain.n(line) + ")",
                base64(cp.root()), base64(root), s == null ? new Involved[] {Involved.checkpoint(size, cp.line()),
                        Involved.record(size, line)} : new Involved[] {Involved.checkpoint(size, cp.line()),
                        Involved.record(size, line), Involved.node(from, to, s.node().line())});
    }

    // ---- the records' times ----

    private void dated(String time, long seq, long line) {
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
    private void covered(Signed cp) {
        if (latest != null && cp.time() != null && latest.isAfter(cp.time().plus(SKEW)) && !datedAfter) {
            datedAfter = true;
            problems.add(Problem.of(Kind.DATED_AFTER_CHECKPOINT, log, latestSeq, latestLine, record(latestSeq, latestLine)
                    + " is dated " + latest + ", after the checkpoint that first covers it was signed (" + cp.time() + ", "
                    + at(cp.line()) + "): a checkpoint cannot sign a record from its future: the record's time, or the checkpoint's, is not true",
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
            if (maxGap != null && d.compareTo(maxGap) > 0 && problems.stream().noneMatch(p -> p.kind() == Kind.ANCHOR_GAP)) {
                problems.add(Problem.of(Kind.ANCHOR_GAP, log, earliestSeq, cp.line(), "record " + Plain.n(earliestSeq) + " of log "
                        + log + " is dated " + earliest + ", " + TimeStampCheck.words(d) + " before the first time-stamp that"
                        + " covers it (" + cp.stamp().tsa() + " saw the checkpoint at " + Plain.n(cp.size()) + " records, line "
                        + Plain.n(cp.line()) + ", at " + cp.stamp().time() + "): more than --max-anchor-gap allows: it may have been"
                        + " written long after the time it bears", "at most " + TimeStampCheck.words(maxGap),
                        TimeStampCheck.words(d), Involved.checkpoint(cp.size(), cp.line())));
            }
        }
        earliest = null;
    }

    // ---- where the records start ----

    /**
     * Where the log starts (at its first record, or at the end if none): seq 1 with an empty tree; after an archive
     * marker a signed checkpoint vouches for (tree from its stored nodes); or, if partial, after what the export lacks.
     * False if the start is broken.
     */
    private boolean start(long firstRecord, long line) {
        started = true;
        firstLine = line;
        for (Signed k : kept) {
            Signed earlier = roots.add(k);
            if (earlier != null && !java.util.Arrays.equals(earlier.root(), k.root())) {
                fail(Kind.SPLIT_VIEW, k.size(), earlier.line(), "the checkpoint you kept (--expect-checkpoint) and the signed"
                        + " checkpoint on line " + Plain.n(earlier.line()) + " of log " + log + ", both for " + Plain.n(k.size())
                        + " records, have different roots: the log was rewritten", base64(k.root()), base64(earlier.root()),
                        Involved.checkpoint(k.size(), 0), Involved.checkpoint(k.size(), earlier.line()));
                return false;
            }
        }
        Marker accepted = null;
        Frontier acceptedTree = null;
        boolean acceptedV1 = false;
        for (Marker m : markers) {
            boolean pinned = v1.pins(m.seq, m.hash);
            Frontier t = nodes.prefix(m.seq, pinned ? null : m.hash);
            Signed cp = roots.at(m.seq);
            if (!pinned && (cp == null || t == null || !java.util.Arrays.equals(t.root(), cp.root()))) {
                fail(Kind.ARCHIVE_UNVOUCHED, m.seq, m.line, "the archive marker on line " + Plain.n(m.line) + " says records 1 to "
                        + Plain.n(m.seq) + " of log " + log + " were archived, but no signed checkpoint vouches for it: records may"
                        + " have been deleted and the marker made up", cp == null ? "a signed checkpoint at " + Plain.n(m.seq)
                        + " records" : base64(cp.root()), cp == null ? "none" : t == null ? "no stored nodes of records 1 to "
                        + Plain.n(m.seq) : base64(t.root()), cp == null ? new Involved[] {new Involved("archive marker", m.line)}
                        : new Involved[] {new Involved("archive marker", m.line), Involved.checkpoint(m.seq, cp.line())});
                return false;
            }
            if (accepted == null || m.seq > accepted.seq) {
                accepted = m;
                acceptedTree = t;
                acceptedV1 = pinned;
            }
        }
        if (accepted != null) {
            lastSeq = accepted.seq;
            archivedThrough = accepted.seq;
            v1.continueAfter(acceptedV1 ? accepted.hash : null);
            tree = acceptedTree;
            if (tree != null && roots.at(lastSeq) != null) {
                roots.matched(roots.at(lastSeq));
            }
            roots.signedThrough = Math.max(roots.signedThrough, accepted.seq);
        } else {
            tree = new Frontier();
        }
        if (firstRecord > lastSeq + 1) {
            if (!partial) {
                order(firstRecord, line);
                return false;
            }
            lastSeq = firstRecord - 1;
            v1.continueAfter(null);
            warnings.add("log " + log + ": the export starts at seq " + Plain.n(firstRecord) + "; the records before it are"
                    + " not in the export and were not checked");
            tree = nodes.prefix(lastSeq, null);
            Signed cp = roots.at(lastSeq);
            if (tree != null && cp != null) {
                if (!java.util.Arrays.equals(tree.root(), cp.root())) {
                    fail(Kind.ROOT_MISMATCH, lastSeq, cp.line(), "the stored nodes of log " + log + " for the records before the"
                            + " export (1 to " + Plain.n(lastSeq) + ") do not match the signed checkpoint at " + Plain.n(lastSeq)
                            + " records (line " + Plain.n(cp.line()) + "): they were changed", base64(cp.root()), base64(tree.root()),
                            Involved.checkpoint(lastSeq, cp.line()));
                    return false;
                }
                roots.matched(cp);
            }
        }
        for (Signed k : kept) {
            Frontier t = k.size() < lastSeq ? nodes.prefix(k.size(), null) : null;
            if (k.size() < lastSeq && (t == null || !java.util.Arrays.equals(t.root(), k.root()))) {
                fail(Kind.ROOT_MISMATCH, k.size(), line, "the checkpoint you kept (--expect-checkpoint) at " + Plain.n(k.size())
                        + " records cannot be compared with log " + log + ": the export starts after it, at seq "
                        + Plain.n(lastSeq + 1) + (t == null ? ", without the stored nodes it needs" : ", and its stored nodes"
                        + " give another root"), base64(k.root()), t == null ? "no stored nodes" : base64(t.root()),
                        Involved.checkpoint(k.size(), 0));
                return false;
            }
        }
        firstSeq = lastSeq + 1;
        roots.lastMatched = lastSeq;
        roots.passed(lastSeq);
        return true;
    }

    // ---- the end ----

    /** @param refused whether some of the log's checkpoints were refused (then an unsigned tail says nothing new) */
    void finish(boolean refused) {
        if (!started) {
            start(0, 0);
        }
        Suspect s = broken == null ? nodes.takeSuspect() : null;
        if (s != null) {
            broken = unsettled(s, " (no later signed checkpoint settles which)");
        }
        long covered = Math.max(roots.lastSize(), v1.lastPinned());
        if (broken == null && covered > lastSeq) {
            Signed cp = roots.at(covered);
            long cpLine = cp != null ? cp.line() : v1.lineOf(covered);
            if (partial) {
                warnings.add("log " + log + ": checkpoints up to " + Plain.n(covered) + " records cover records after the export's"
                        + " last (seq " + Plain.n(lastSeq) + "); they were not checked");
            } else {
                missingAtEnd(cpLine, covered, "a signed checkpoint (" + at(cpLine) + ") covers " + Plain.n(covered)
                        + " records" + (cp != null && cp.stamp() != null ? ", and a time-stamping authority (" + cp.stamp().tsa()
                        + ") saw that checkpoint at " + cp.stamp().time() : ""), cp != null ? Involved.checkpoint(covered, cpLine)
                        : new Involved("version-1 checkpoint of record " + covered, cpLine));
            }
        }
        Stored beyond = broken == null && !partial ? nodes.beyond(lastSeq) : null;
        if (beyond != null) {
            missingAtEnd(beyond.line(), beyond.last(), "its stored node on line " + Plain.n(beyond.line()) + " covers records "
                    + Plain.n(beyond.first()) + " to " + Plain.n(beyond.last()), Involved.node(beyond.first(), beyond.last(), beyond.line()));
        }
        if (broken == null && records > 0) {
            unsigned(refused);
            warnAtEnd();
            if (maxGap != null && roots.anchors == 0) {
                problems.add(Problem.of(Kind.ANCHOR_GAP, log, firstSeq, firstLine, "no time-stamp covers any record of log " + log
                        + ", so nothing bounds how long after their time they were written (--max-anchor-gap)",
                        "at most " + TimeStampCheck.words(maxGap), "no time-stamp", Involved.record(firstSeq, firstLine)));
            }
        }
    }

    private void missingAtEnd(long line, long covered, String but, Involved involved) {
        fail(Kind.MISSING, lastSeq + 1, line, (records == 0 && lastSeq == 0 ? "log " + log + " is missing: the export holds"
                + " none of its records" : "records are missing at the end of log " + log + ": the export ends at seq "
                + Plain.n(lastSeq)) + ", but " + but, "records up to seq " + Plain.n(covered), "the last record is seq "
                + Plain.n(lastSeq), involved);
    }

    /** Records no signature covers: a problem if none is or no checkpoint was checked; a tail, unless accepted. */
    private void unsigned(boolean refused) {
        long from = Math.max(roots.signedThrough, firstSeq - 1) + 1;
        String range = "(seq " + Plain.n(from) + " to " + Plain.n(lastSeq) + ")";
        Involved first = Involved.record(from, from == firstSeq ? firstLine : tailLine);
        Involved[] lines = from == lastSeq ? new Involved[] {first} : new Involved[] {first, Involved.record(lastSeq, lastLine)};
        if (tree == null && !roots.isEmpty() && roots.lastSize() > firstSeq - 1) {
            problems.add(Problem.of(Kind.UNSIGNED_LOG, log, firstSeq, firstLine, "the checkpoints of log " + log + " could not be"
                    + " checked: the export holds neither the records before seq " + Plain.n(firstSeq) + " nor their stored nodes,"
                    + " so no signature vouches for its records" + (from > lastSeq ? "" : " " + range), "the records before seq "
                    + Plain.n(firstSeq) + " or their stored nodes", "neither", lines));
        } else if (refused || from > lastSeq) {
            return; // a refused checkpoint is a problem already
        } else if (from == firstSeq) {
            problems.add(Problem.of(Kind.UNSIGNED_LOG, log, from, firstLine, "no signed checkpoint covers the records of log " + log
                    + " " + range + ": they are in order and match their hashes, but nothing signed vouches for them",
                    "a checkpoint signed by a trusted key that matches the records", "none", lines));
        } else if (allowTail) {
            warnings.add("log " + log + ": the last " + Plain.n(lastSeq - from + 1) + " record(s) " + range + " are not yet"
                    + " covered by a signed checkpoint: they are in order and match their hashes, but nothing signed vouches for"
                    + " them yet (accepted with --allow-unsigned-tail)");
        } else {
            problems.add(Problem.of(Kind.UNSIGNED_TAIL, log, from, lines[0].line(), "the last " + Plain.n(lastSeq - from + 1)
                    + " record(s) of log " + log + " " + range + " are covered by no signed checkpoint: they are in order and match"
                    + " their hashes, but nothing signed vouches for them. Export again once the server has signed them (it signs"
                    + " a checkpoint every quaestor.audit.checkpoint-every records or quaestor.audit.checkpoint-interval), or"
                    + " accept them with --allow-unsigned-tail", "records signed up to seq " + Plain.n(lastSeq), "signed up to seq "
                    + Plain.n(roots.signedThrough), lines));
        }
    }

    private void warnAtEnd() {
        if (stamped && records > 0 && roots.anchors == 0) {
            warnings.add("log " + log + ": no checkpoint of its records carries a valid time-stamp token: only the log's own"
                    + " signing key vouches for them");
        } else if (stamped && records > 0 && lastSeq > roots.anchoredThrough) {
            warnings.add("log " + log + ": time-stamps vouch for records up to seq " + Plain.n(roots.anchoredThrough) + " ("
                    + roots.anchoredBy.tsa() + " saw them by " + roots.anchoredBy.time() + "); the last "
                    + Plain.n(lastSeq - roots.anchoredThrough) + " record(s) rest on the log's signing key alone: whoever holds"
                    + " it could have rewritten or removed them, and an export would not show it");
        }
    }

    List<Problem> problems() {
        var out = new ArrayList<Problem>();
        if (broken != null) {
            out.add(broken);
        }
        out.addAll(problems);
        return out;
    }

    List<String> warnings() {
        return warnings;
    }

    Report.Summary summary() {
        return new Report.Summary(log, records, records == 0 ? 0 : firstSeq, lastSeq, hashes.formats(), roots.matched,
                roots.signedThrough, roots.anchors, roots.anchoredThrough, roots.anchoredBy == null ? null : roots.anchoredBy.time(),
                archivedThrough, nodes.checked, broken != null, gap, gapSeq);
    }

    // ---- words ----

    /** The log's first break, with its evidence; what follows it is not checked. */
    void fail(Kind kind, long seq, long line, String message, String expected, String found, Involved... involved) {
        if (broken != null) {
            return;
        }
        // A stored node before this point that disagreed with its records is the first sign.
        Suspect s = nodes.takeSuspect();
        broken = s == null ? Problem.of(kind, log, seq, line, message, expected, found, involved)
                : unsettled(s, "; then: " + message, involved);
    }

    /** A stored node that did not match its records, and no signed checkpoint to say which was changed. */
    private Problem unsettled(Suspect s, String then, Involved... after) {
        Stored n = s.node();
        var involved = new ArrayList<>(List.of(Involved.node(n.first(), n.last(), n.line())));
        involved.addAll(List.of(after));
        return Problem.of(Kind.NODE_MISMATCH, log, n.first(), n.line(), "the stored node on line " + Plain.n(n.line())
                + " does not match records " + Plain.n(n.first()) + " to " + Plain.n(n.last()) + " of log " + log + ": the node or"
                + " one of those records was changed" + then, Hex.of(s.computed()), Hex.of(n.hash()), involved.toArray(Involved[]::new));
    }

    String record(long seq, long line) {
        return "record " + Plain.n(seq) + " of log " + log + " (line " + Plain.n(line) + ")";
    }

    /** Where a checkpoint is: its line, or the one the person verifying kept. */
    private static String at(long line) {
        return line > 0 ? "line " + Plain.n(line) : "--expect-checkpoint";
    }

    private static String base64(byte[] hash) {
        return Base64.getEncoder().encodeToString(hash);
    }
}
