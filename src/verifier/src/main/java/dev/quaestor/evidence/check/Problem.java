package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Plain;
import java.util.List;

/**
 * Why the evidence does not verify: kind, place (log, seq or 0, line or 0), words, and evidence anyone can check without
 * this verifier: expected and found (hashes in hex, roots in base64, as exported) and the lines involved. A problem that
 * cannot say which record is broken, only that one of several is, names those records too ({@link #records}, else null).
 */
public record Problem(Kind kind, String log, long seq, long line, String message, Evidence evidence, Span records) {

    public enum Kind {
        RECORD_CHANGED, // A record's content does not hash to its stored hash.
        UNKNOWN_FIELD, // A record holds a field its format does not define, which its hash would not cover.
        RECORD_DAMAGED, // A record cannot be read as one: no log, no valid seq, a format this verifier does not know.
        LINK_BROKEN, // A version-1 record's prev is not the stored hash of the record before it.
        OUT_OF_ORDER, // A record repeats or goes back in seq (or in format version).
        MISSING, // Records are missing: at the start, between two records, or at the end.
        ROOT_MISMATCH, // The records' tree does not give a signed root (or a version-1 checkpoint names another record).
        SPLIT_VIEW, // Two signed checkpoints of one size hold different roots: two histories of the log were signed.
        NODE_MISMATCH, // A stored node does not match the records it covers.
        NODE_DAMAGED, // A stored node's line holds no hash or no valid position.
        ARCHIVE_UNVOUCHED, // An archive marker that no signed checkpoint vouches for.
        MISPLACED_LINE, // A checkpoint, marker or node after the records it concerns.
        UNSIGNED_LOG, // No matched signed checkpoint covers any record of the log, or none could be checked.
        UNSIGNED_TAIL, // Records after the last matched checkpoint, unsigned (unless --allow-unsigned-tail).
        CHECKPOINT_REFUSED, // A checkpoint that does not count: untrusted key, bad signature, another log, damaged.
        TIMESTAMP_REFUSED, // A checkpoint's time-stamp token that does not vouch for it.
        NO_TRUSTED_KEY, // No key was trusted.
        NO_LOG, // The export holds no log: no record, checkpoint or archive marker.
        DATED_AFTER_CHECKPOINT, // A record dated after the checkpoint that first covers it was signed.
        ANCHOR_GAP // A record dated longer before the first time-stamp covering it than --max-anchor-gap (or none covers any).
    }

    /**
     * The records a problem concerns when it cannot tell which one of them is broken, seq {@code first} to {@code last}
     * of its log: a signed root or a stored node no longer matches them, so one of them (or the node) was changed,
     * inserted or removed.
     */
    public record Span(long first, long last) {
    }

    /** What was expected, what was found, and the lines that hold them. */
    public record Evidence(String expected, String found, List<Involved> involved) {
        public Evidence {
            involved = List.copyOf(involved);
        }
    }

    /** A line of the evidence and what it holds, such as "record 48" or "checkpoint at 50 records". */
    public record Involved(String what, long line) {

        public static Involved record(long seq, long line) {
            return new Involved("record " + Plain.n(seq), line);
        }

        public static Involved checkpoint(long size, long line) {
            return new Involved("checkpoint at " + Plain.n(size) + " records", line);
        }

        public static Involved v1Checkpoint(long seq, long line) {
            return new Involved("version-1 checkpoint of record " + seq, line);
        }

        public static Involved node(long first, long last, long line) {
            return new Involved("stored node of records " + Plain.n(first) + " to " + Plain.n(last), line);
        }

        @Override
        public String toString() {
            return what + (line > 0 ? " (line " + Plain.n(line) + ")" : "");
        }
    }

    public static Problem of(Kind kind, String log, long seq, long line, String message, String expected, String found,
            Involved... involved) {
        return new Problem(kind, log, seq, line, message, new Evidence(expected, found, List.of(involved)), null);
    }

    /** This problem, concerning one of records {@code first} to {@code last} rather than the one at its seq. */
    public Problem within(long first, long last) {
        return new Problem(kind, log, seq, line, message, evidence, new Span(first, last));
    }

    /** This problem in other words (the same kind, place and evidence). */
    public Problem saying(String words) {
        return new Problem(kind, log, seq, line, words, evidence, records);
    }

    @Override
    public String toString() {
        return message;
    }
}
