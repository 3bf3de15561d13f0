package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.v1.V1Checkpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.FutureTask;

/**
 * Verifies logs from an export pushed in its order ({@link ExportSink}), from a file or from the database alike. A
 * checkpoint counts if a trusted key signed it and its origin is {@code <key name>/<log>}; keys the export names are
 * reported, never used. Its time-stamp token is checked against the pinned TSA roots ({@link TimeStampCheck}), and each
 * log's records against its checkpoints ({@link LogCheck}). {@link #finish()} reports, per log, the first broken record
 * and how far signatures and time-stamps vouch for the records.
 */
public final class LogVerifier implements ExportSink {

    private final TrustedKeys trusted;
    private final TimeStampCheck stamps;
    private final boolean partial;
    private final boolean allowTail;
    /** Past this, a record's time before the first time-stamp covering it is a problem; null: only reported. */
    private final Duration maxGap;
    private final Map<String, LogCheck> logs = new TreeMap<>();
    private final List<Problem> problems = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    /** Per log, the lines of the checkpoints refused, and of those whose time-stamps were refused. */
    private final Map<String, List<Long>> refused = new HashMap<>();
    private final Map<String, List<Long>> refusedStamps = new HashMap<>();
    /** Checkpoints that carry a token which was not checked (no TSA root was pinned). */
    private int unchecked;
    /** Checkpoint checks under way, in the export's order; each yields what to do with its outcome. */
    private final List<FutureTask<Runnable>> pending = new ArrayList<>();
    private LogCheck last;

    /**
     * @param stamps checks time-stamp tokens; null: not checked (the report says so)
     * @param partial the export may cover part of each log: a log may start after seq 1 and end before its last checkpoint
     * @param allowTail records after the last matched checkpoint (a live log's export) are a warning, not a problem;
     *     a log no checkpoint covers at all is a problem all the same
     */
    public LogVerifier(TrustedKeys trusted, TimeStampCheck stamps, boolean partial, boolean allowTail) {
        this(trusted, stamps, partial, allowTail, null);
    }

    /** @param maxGap with {@code stamps}: a record dated longer before the first time-stamp covering it is a problem */
    public LogVerifier(TrustedKeys trusted, TimeStampCheck stamps, boolean partial, boolean allowTail, Duration maxGap) {
        this.trusted = trusted;
        this.stamps = stamps;
        this.partial = partial;
        this.allowTail = allowTail;
        this.maxGap = maxGap;
    }

    @Override
    public void key(String vkey, long line) {
        VerifierKey k;
        try {
            k = VerifierKey.parse(vkey);
        } catch (IllegalArgumentException e) {
            warnings.add("line " + Plain.n(line) + ": the export names a key that is not a valid verifier key; it was ignored");
            return;
        }
        if (!trusted.trusts(k)) {
            warnings.add("line " + Plain.n(line) + ": the export names the key " + k.id()
                    + ", which you did not trust (--trust); it was not used for anything");
        }
    }

    @Override
    public void keyV1(String keyId, String publicKeyBase64, long line) {
        byte[] raw = V1Checkpoint.rawKey(publicKeyBase64);
        if (raw == null || !V1Checkpoint.keyId(raw).equals(keyId)) {
            warnings.add("line " + Plain.n(line) + ": the export names a version-1 key that is not valid; it was ignored");
        } else if (!trusted.trustsRaw(raw)) {
            warnings.add("line " + Plain.n(line) + ": the export names the version-1 key " + keyId
                    + ", which you did not trust (--trust); it was not used for anything");
        }
    }

    /**
     * A signature costs about a millisecond to check, and there is a checkpoint every thousand records or so: each check
     * starts in the background as its line is read; before the first record this thread helps, then applies the outcomes
     * in the export's order.
     */
    @Override
    public void checkpoint(String log, long size, String note, long line) {
        start(new FutureTask<>(() -> checkNote(log, size, note, line)));
    }

    @Override
    public void checkpointV1(V1Checkpoint c, long line) {
        start(new FutureTask<>(() -> checkV1(c, line)));
    }

    private void start(FutureTask<Runnable> check) {
        pending.add(check);
        ForkJoinPool.commonPool().execute(check);
    }

    private void settle() {
        if (pending.isEmpty()) {
            return;
        }
        // The background takes checks from the front; this thread helps from the back (running a check
        // the background has run, or is running, does nothing).
        for (int i = pending.size() - 1; i >= 0; i--) {
            pending.get(i).run();
        }
        for (FutureTask<Runnable> check : pending) {
            try {
                check.get().run();
            } catch (ExecutionException e) {
                throw new IllegalStateException("checking a checkpoint failed: " + e.getCause(), e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted");
            }
        }
        pending.clear();
    }

    /** Checks a checkpoint note (any thread); returns what to do with the outcome (in order). */
    private Runnable checkNote(String log, long size, String note, long line) {
        String what = "the checkpoint on line " + Plain.n(line) + " (log " + log + ", " + Plain.n(size) + " records)";
        SignedCheckpoint opened;
        try {
            opened = SignedCheckpoint.open(note, trusted, what);
        } catch (Refusal e) {
            return refusal(log, size, line, e.getMessage(), e.expected, e.found);
        }
        Checkpoint cp = opened.checkpoint();
        String origin = opened.signers().get(0).name() + "/" + log;
        if (opened.signerOf(log) == null) {
            return refusal(log, size, line, what + " belongs to another log: it is for " + cp.origin() + ", not for " + origin,
                    "origin " + origin, "origin " + cp.origin());
        }
        if (cp.size() != size) {
            return refusal(log, size, line, what + " was altered: the line says " + Plain.n(size) + " records, the signed checkpoint "
                    + Plain.n(cp.size()), "size " + size + " (the line's)", "size " + cp.size() + " (signed)");
        }
        byte[] root = cp.root();
        // The checkpoint's signature holds, so it counts for the records whatever its time-stamp says.
        byte[] token;
        try {
            token = Anchor.find(note);
        } catch (IllegalArgumentException e) {
            return unstamped(log, cp, line, what + " is damaged: " + e.getMessage(), "a time-stamp line holding a token",
                    e.getMessage());
        }
        if (token == null) {
            return () -> log(log).checkpoint(size, root, line, cp.time(), null);
        }
        try {
            TimeStampCheck.Stamp stamp = TimeStampCheck.check(stamps, token, opened.text(), cp.time());
            return () -> {
                unchecked += stamp == null ? 1 : 0;
                log(log).checkpoint(size, root, line, cp.time(), stamp);
            };
        } catch (Refusal e) {
            return unstamped(log, cp, line, "the time-stamp token of " + what + " " + e.getMessage(), e.expected, e.found);
        }
    }

    /** A checkpoint with a refused time-stamp counts without it; the log's first such is a problem, the rest counted. */
    private Runnable unstamped(String log, Checkpoint cp, long line, String message, String expected, String found) {
        return () -> {
            if (firstOfLog(refusedStamps, log, line)) {
                log(log).problem(Problem.of(Kind.TIMESTAMP_REFUSED, log, cp.size(), line, message, expected, found,
                        Involved.checkpoint(cp.size(), line)));
            }
            log(log).checkpoint(cp.size(), cp.root(), line, cp.time(), null);
        };
    }

    private Runnable checkV1(V1Checkpoint c, long line) {
        String what = "the version-1 checkpoint on line " + Plain.n(line) + " (log " + c.log() + ", seq " + Plain.n(c.seq()) + ")";
        byte[] key = trusted.v1Key(c.keyId());
        if (key == null) {
            return refusal(c.log(), c.seq(), line, what + " is signed by a key that is not trusted: version-1 key " + c.keyId(),
                    "a signature by a trusted key", "version-1 key " + c.keyId());
        }
        if (!Hex.isHash(c.hash()) || !c.signedBy(key)) {
            return refusal(c.log(), c.seq(), line, what + " has an invalid signature: it was changed after it was signed",
                    "a signature that verifies", "signature " + c.signature());
        }
        return () -> log(c.log()).pin(c.seq(), c.hash(), line);
    }

    private Runnable refusal(String log, long size, long line, String message, String expected, String found) {
        return () -> {
            log(log); // the log is reported even if none of its checkpoints counts
            if (firstOfLog(refused, log, line)) {
                problems.add(Problem.of(Kind.CHECKPOINT_REFUSED, log, size, line, message, expected, found,
                        Involved.checkpoint(size, line)));
            }
        };
    }

    /** Adds a refused line of {@code log} to {@code refusals}; whether it is the log's first. */
    private static boolean firstOfLog(Map<String, List<Long>> refusals, String log, long line) {
        List<Long> lines = refusals.computeIfAbsent(log, l -> new ArrayList<>());
        lines.add(line);
        return lines.size() == 1;
    }

    /**
     * A checkpoint the person verifying kept ({@code --expect-checkpoint}), signed by a trusted key: the export must hold
     * its log, reach its size and match its root there.
     */
    public void expect(String log, Checkpoint kept) {
        log(log).expect(kept);
    }

    /** The checks need records' leaf hashes (and, for version 1, their bytes, which are always kept), nothing more. */
    @Override
    public boolean needsRecordBytes() {
        return false;
    }

    @Override
    public void archive(String log, long seq, String hash, long line) {
        log(log).marker(seq, hash, line);
    }

    @Override
    public void node(String log, int level, long index, String hash, long line) {
        log(log).node(level, index, hash, line);
    }

    @Override
    public void record(CanonicalRecord record, String storedHash, long line) {
        settle();
        String log = record.log();
        if (log == null) {
            problems.add(Problem.of(Kind.RECORD_DAMAGED, "?", 0, line, "the record on line " + Plain.n(line) + " names no log: it"
                    + " was damaged", "a log", "none", new Involved("record", line)));
            return;
        }
        LogCheck c = last != null && last.log.equals(log) ? last : log(log);
        last = c;
        c.record(record, storedHash, line);
    }

    /** Ends the checks and reports. */
    public Report finish() {
        settle();
        var summaries = new ArrayList<Report.Summary>();
        var all = new ArrayList<>(problems);
        var warned = new ArrayList<>(warnings);
        for (LogCheck c : logs.values()) {
            c.finish(refused.containsKey(c.log));
            summaries.add(c.summary());
            all.addAll(c.problems());
            warned.addAll(c.warnings());
            more(Kind.CHECKPOINT_REFUSED, c.log, refused.get(c.log), " more checkpoint(s) of log ", all);
            more(Kind.TIMESTAMP_REFUSED, c.log, refusedStamps.get(c.log), " more time-stamp token(s) of log ", all);
        }
        if (unchecked > 0) {
            warned.add(Plain.n(unchecked) + " checkpoint(s) carry an RFC 3161 time-stamp token, which was not checked: pin the"
                    + " time-stamping authority's root with --tsa-ca to check them");
        }
        if (logs.isEmpty()) {
            all.add(Problem.of(Kind.NO_LOG, "-", 0, 0, "the export holds no log: no record, checkpoint or archive marker, so"
                    + " nothing was verified", "at least one log", "none"));
        }
        if (trusted.isEmpty()) {
            all.add(Problem.of(Kind.NO_TRUSTED_KEY, "-", 0, 0, "no key was trusted, so no checkpoint could be checked: give the"
                    + " log's verifier key", "a key given with --trust", "none"));
        }
        return new Report(List.copyOf(summaries), List.copyOf(all), List.copyOf(warned));
    }

    /** Refusals after a log's first, counted in one problem: the lines of the first ten of them are its evidence. */
    private static void more(Kind kind, String log, List<Long> lines, String what, List<Problem> out) {
        if (lines != null && lines.size() > 1) {
            List<Long> rest = lines.subList(1, lines.size());
            out.add(Problem.of(kind, log, 0, 0, Plain.n(rest.size()) + what + log + " were refused as well", "none refused",
                    Plain.n(rest.size()) + " more refused", rest.stream().limit(10).map(l -> new Involved("checkpoint", l))
                            .toArray(Involved[]::new)));
        }
    }

    private LogCheck log(String name) {
        return logs.computeIfAbsent(name, n -> new LogCheck(n, partial, allowTail, stamps != null, maxGap));
    }
}
