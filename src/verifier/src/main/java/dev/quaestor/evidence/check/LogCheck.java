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
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * The checks of one log, fed in export order (verified checkpoints, archive markers, stored nodes, then records), in
 * this sequence: where the records start ({@link LogStart}); then, record by record, that each seq follows the one
 * before, that it matches its hash ({@link RecordHashes}), that the tree they build matches each stored node it
 * completes ({@link StoredNodes}) and each signed root at its size ({@link SignedRoots}), and that their times agree
 * with those checkpoints ({@link RecordDates}); at the end, that none is missing and what vouches for them
 * ({@link LogEnd}). It stops at the first broken record.
 */
final class LogCheck {

    final String log;
    final boolean partial;
    final SignedRoots roots = new SignedRoots();
    final StoredNodes nodes = new StoredNodes();
    /** The part of the log in format version 1, if any. */
    final V1Chain v1 = new V1Chain();
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final RecordHashes hashes = new RecordHashes(this);
    private final LogStart start = new LogStart(this);
    private final RecordDates dates;
    private final LogEnd end;

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

    LogCheck(String log, boolean partial, boolean allowTail, boolean stamped, Duration maxGap) {
        this.log = log;
        this.partial = partial;
        this.dates = new RecordDates(this, maxGap);
        this.end = new LogEnd(this, allowTail, stamped);
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
        if (earlier != null && !Arrays.equals(earlier.root(), root)) {
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
                        Involved.v1Checkpoint(seq, conflict.checkpointLine()), Involved.v1Checkpoint(seq, line)));
            }
        } else if (started && seq <= lastSeq) {
            misplaced("checkpoint", line);
        } else {
            v1.pin(seq, hash, line);
        }
    }

    void expect(Checkpoint cp) {
        start.expect(cp);
    }

    void marker(long seq, String hash, long line) {
        if (started) {
            misplaced("archive marker", line);
        } else {
            start.marker(seq, hash, line);
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

    /** A problem that does not stop the records' checks (a time-stamp that does not vouch for its checkpoint, a record's date). */
    void problem(Problem p) {
        problems.add(p);
    }

    /** A warning: something the checks could not look at, or accepted. */
    void warn(String warning) {
        warnings.add(warning);
    }

    // ---- where the records start ----

    /**
     * Where the log starts (at its first record, or at the end if none): seq 1 with an empty tree; after an archive
     * marker a signed checkpoint vouches for (tree from its stored nodes); or, if partial, after what the export lacks.
     * False if the start is broken.
     */
    private boolean begin(long firstRecord, long line) {
        started = true;
        firstLine = line;
        LogStart.Start s = start.archived();
        if (s == null) {
            return false;
        }
        lastSeq = s.after();
        archivedThrough = s.after();
        tree = s.tree();
        if (firstRecord > lastSeq + 1) {
            if (!partial) {
                order(firstRecord, line);
                return false;
            }
            lastSeq = firstRecord - 1;
            s = start.partial(lastSeq);
            if (s == null) {
                return false;
            }
            tree = s.tree();
        }
        if (!start.kept(lastSeq, line)) {
            return false;
        }
        firstSeq = lastSeq + 1;
        roots.lastMatched = lastSeq;
        roots.passed(lastSeq);
        return true;
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
        if (!started && !begin(seq, line)) {
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
        dates.dated(r.time(), seq, line);
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
                    + Plain.n(lastSeq + 1) + " is not in its place (removed, or moved elsewhere)" : "; records "
                    + Plain.n(lastSeq + 1) + " to " + Plain.n(seq - 1) + " are not in their place (removed, or moved elsewhere)"), "seq " + Plain.n(lastSeq + 1), "seq " + Plain.n(seq), Involved.record(seq, line));
        }
    }

    /** The tree has reached a checkpoint's size: its root must be the signed one. */
    private void compareRoot(long size, long line) {
        Signed cp = roots.at(size);
        roots.passed(size);
        byte[] root = tree.root();
        Suspect s = nodes.takeSuspect();
        if (Arrays.equals(root, cp.root())) {
            roots.matched(cp);
            dates.covered(cp);
            if (s != null) {
                Stored n = s.node();
                fail(Problem.of(Kind.NODE_MISMATCH, log, n.first(), n.line(), "the stored node on line " + Plain.n(n.line())
                        + " (records " + Plain.n(n.first()) + " to " + Plain.n(n.last()) + " of log " + log + ") was changed: it"
                        + " does not match those records, which match the signed checkpoint at " + Plain.n(size) + " records (line "
                        + Plain.n(cp.line()) + ")", Hex.of(s.computed()), Hex.of(n.hash()), Involved.node(n.first(), n.last(),
                        n.line()), Involved.checkpoint(size, cp.line())).within(n.first(), n.last()));
            }
            return;
        }
        long from = s != null ? Math.max(s.node().first(), roots.lastMatched + 1) : roots.lastMatched + 1;
        long to = s != null ? s.node().last() : size;
        fail(Problem.of(Kind.ROOT_MISMATCH, log, size, line, "the checkpoint at " + Plain.n(size) + " records (" + at(cp.line())
                + ") does not match the records of log " + log + ": a record between " + Plain.n(from) + " and " + Plain.n(to)
                + " was changed, inserted or removed (found at record " + Plain.n(size) + ", line " + Plain.n(line) + ")",
                base64(cp.root()), base64(root), s == null ? new Involved[] {Involved.checkpoint(size, cp.line()),
                        Involved.record(size, line)} : new Involved[] {Involved.checkpoint(size, cp.line()),
                        Involved.record(size, line), Involved.node(s.node().first(), to, s.node().line())}).within(from, to));
    }

    // ---- the end ----

    /** @param refused whether some of the log's checkpoints were refused (then an unsigned tail says nothing new) */
    void finish(boolean refused) {
        if (!started) {
            begin(0, 0);
        }
        Suspect s = broken == null ? nodes.takeSuspect() : null;
        if (s != null) {
            broken = unsettled(s, " (no later signed checkpoint settles which)");
        }
        var span = new LogEnd.Span(records, firstSeq, firstLine, lastSeq, lastLine, tailLine);
        if (broken == null) {
            end.missing(span);
        }
        if (broken == null && records > 0) {
            end.unsigned(span, tree != null, refused);
            end.unstamped(span);
            if (roots.anchors == 0) {
                dates.noneStamped(firstSeq, firstLine);
            }
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
                archivedThrough, nodes.checked, broken != null, dates.gap(), dates.gapSeq());
    }

    // ---- words ----

    /** The log's first break, with its evidence; what follows it is not checked. */
    void fail(Kind kind, long seq, long line, String message, String expected, String found, Involved... involved) {
        fail(Problem.of(kind, log, seq, line, message, expected, found, involved));
    }

    /** The log's first break, {@code p}; what follows it is not checked. */
    void fail(Problem p) {
        if (broken != null) {
            return;
        }
        // A stored node before this point that disagreed with its records is the first sign.
        Suspect s = nodes.takeSuspect();
        broken = s == null ? p : unsettled(s, "; then: " + p.message(), p.evidence().involved().toArray(Involved[]::new));
    }

    /** A stored node that did not match its records, and no signed checkpoint to say which was changed. */
    private Problem unsettled(Suspect s, String then, Involved... after) {
        Stored n = s.node();
        var involved = new ArrayList<>(List.of(Involved.node(n.first(), n.last(), n.line())));
        involved.addAll(List.of(after));
        return Problem.of(Kind.NODE_MISMATCH, log, n.first(), n.line(), "the stored node on line " + Plain.n(n.line())
                + " does not match records " + Plain.n(n.first()) + " to " + Plain.n(n.last()) + " of log " + log + ": the node or"
                + " one of those records was changed" + then, Hex.of(s.computed()), Hex.of(n.hash()), involved.toArray(Involved[]::new))
                .within(n.first(), n.last());
    }

    String record(long seq, long line) {
        return "record " + Plain.n(seq) + " of log " + log + " (line " + Plain.n(line) + ")";
    }

    /** Where a checkpoint is: its line, or the one the person verifying kept. */
    static String at(long line) {
        return line > 0 ? "line " + Plain.n(line) : "--expect-checkpoint";
    }

    static String base64(byte[] hash) {
        return Base64.getEncoder().encodeToString(hash);
    }
}
