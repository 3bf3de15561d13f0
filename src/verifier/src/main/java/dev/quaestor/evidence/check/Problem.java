package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Plain;
import java.util.List;

/**
 * A reason the evidence does not verify: its kind, where it was found (the log, the record's seq, 0 if it is not
 * about one record, and the line, 0 if unknown), in plain words, and its evidence, so that anyone can check it
 * without this verifier: the value expected and the value found (record and node hashes in hex, checkpoint roots in
 * base64, as the export writes them), and the lines involved (the records, the checkpoints, the nodes).
 */
public record Problem(Kind kind, String log, long seq, long line, String message, Evidence evidence) {

    public enum Kind {
        /** A record's content does not hash to its stored hash. */
        RECORD_CHANGED,
        /** A record holds a field its format does not define, which its hash would not cover. */
        UNKNOWN_FIELD,
        /** A record cannot be read as one: no log, no valid seq, a format this verifier does not know. */
        RECORD_DAMAGED,
        /** A version-1 record's {@code prev} is not the stored hash of the record before it. */
        LINK_BROKEN,
        /** A record repeats or goes back in seq (or in format version). */
        OUT_OF_ORDER,
        /** Records are missing: at the start, between two records, or at the end. */
        MISSING,
        /** The records' tree does not give the root a signed checkpoint holds (or a version-1 checkpoint names another record). */
        ROOT_MISMATCH,
        /** Two signed checkpoints of one size hold different roots: two histories of the log were signed. */
        SPLIT_VIEW,
        /** A stored node does not match the records it covers. */
        NODE_MISMATCH,
        /** A stored node's line holds no hash or no valid position. */
        NODE_DAMAGED,
        /** An archive marker that no signed checkpoint vouches for. */
        ARCHIVE_UNVOUCHED,
        /** A checkpoint, marker or node after the records it concerns. */
        MISPLACED_LINE,
        /** No record of the log is covered by a signed checkpoint that matched it, or its checkpoints could not be checked. */
        UNSIGNED_LOG,
        /** Records after the log's last matched checkpoint, which no signature covers (unless accepted: --allow-unsigned-tail). */
        UNSIGNED_TAIL,
        /** A checkpoint that does not count: not signed by a trusted key, a bad signature, another log, damaged. */
        CHECKPOINT_REFUSED,
        /** A checkpoint's time-stamp token that does not vouch for it. */
        TIMESTAMP_REFUSED,
        /** No key was trusted. */
        NO_TRUSTED_KEY
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
        return new Problem(kind, log, seq, line, message, new Evidence(expected, found, List.of(involved)));
    }

    @Override
    public String toString() {
        return message;
    }
}
