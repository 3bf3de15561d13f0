package dev.quaestor.evidence.v1;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import java.util.HashMap;
import java.util.Map;

/**
 * The part of one log written in format version 1 (docs/audit-format.md, section 1.3): each record's
 * {@code prev} holds the stored hash of the record before it, and a version-1 checkpoint pins the stored
 * hash of one record. The log's checks ask this about version-1 records and checkpoints only.
 */
public final class V1Chain {

    /** The {@code prev} of a log's first record. */
    public static final String GENESIS = "0".repeat(64);

    /** A verified version-1 checkpoint: the stored hash of the record at its seq, and its line. */
    private record Pin(String hash, long line) {
    }

    private final Map<Long, Pin> pins = new HashMap<>();
    /** The stored hash the next record's {@code prev} must hold; null to take it on trust. */
    private String prev = GENESIS;

    public boolean isPinned(long seq) {
        return pins.containsKey(seq);
    }

    /** Adds a verified version-1 checkpoint of record {@code seq}. */
    public void pin(long seq, String hash, long line) {
        pins.put(seq, new Pin(hash, line));
    }

    /**
     * Why a verified version-1 check does not hold, with its evidence: the stored hash (or link) expected, the one
     * found, and the line of the checkpoint involved (0: none).
     */
    public record Break(Reason reason, String message, String expected, String found, long checkpointLine) {

        /** A record changed, a broken link, a record other than the one a checkpoint pins, two checkpoints of one seq. */
        public enum Reason { CHANGED, LINK, PINNED, SPLIT }
    }

    /** If a checkpoint of {@code seq} was already given, why this one conflicts with it (null if it names the same record). */
    public Break conflict(long seq, String hash, long line, String log) {
        Pin earlier = pins.get(seq);
        if (earlier == null || earlier.hash.equals(hash)) {
            return null;
        }
        return new Break(Break.Reason.SPLIT, "two signed version-1 checkpoints of log " + log + " at seq " + Plain.n(seq)
                + " (lines " + Plain.n(earlier.line) + " and " + Plain.n(line) + ") name different records: two different"
                + " histories of the log were signed", earlier.hash, hash, earlier.line);
    }

    /** Whether a checkpoint pins record {@code seq} with exactly this stored hash (an archive marker's). */
    public boolean pins(long seq, String hash) {
        Pin pin = pins.get(seq);
        return pin != null && pin.hash.equals(hash);
    }

    /** The largest seq a checkpoint pins (0: none). */
    public long lastPinned() {
        return pins.keySet().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    /** The line of the checkpoint of {@code seq}. */
    public long lineOf(long seq) {
        return pins.get(seq).line;
    }

    /** The next record links to {@code storedHash} (null: the record before is not known, take its link on trust). */
    public void continueAfter(String storedHash) {
        prev = storedHash;
    }

    /**
     * Checks a version-1 record at {@code seq}: its content hashes to its stored hash, its {@code prev}
     * links to the record before, and a checkpoint of its seq names it. Returns why not, or null.
     *
     * @param record the record in words, such as "record 7 of log c1 (line 12)"
     */
    public Break check(CanonicalRecord r, String storedHash, long seq, String record) {
        if (!Hex.matches(storedHash, r.v1Hash())) {
            return new Break(Break.Reason.CHANGED, record + " was changed after it was written: its content no longer matches"
                    + " its hash", storedHash, Hex.of(r.v1Hash()), 0);
        }
        if (prev != null && !prev.equals(r.prev())) {
            return new Break(Break.Reason.LINK, record + " does not link to the record before it (its prev is not that record's"
                    + " hash): the record before was changed and its hash recomputed, or records were removed or inserted", prev,
                    r.prev(), 0);
        }
        prev = storedHash;
        Pin pin = pins.isEmpty() ? null : pins.get(seq);
        if (pin != null && !pin.hash.equals(storedHash)) {
            return new Break(Break.Reason.PINNED, record + " is not the record the signed version-1 checkpoint on line "
                    + Plain.n(pin.line) + " names: the log was rewritten up to it", pin.hash, storedHash, pin.line);
        }
        return null;
    }
}
