package dev.quaestor.evidence;

import dev.quaestor.evidence.v1.V1Checkpoint;

/**
 * An export's lines (docs/audit-format.md, section 6), one call each, in order: keys, checkpoints, archive markers,
 * nodes, records. {@code line}: the file's line number, a row number, or 0. Defaults ignore the line.
 */
public interface ExportSink {

    /** A key the database names (a C2SP verifier key string). Never trusted for being named. */
    default void key(String vkey, long line) {
    }

    /** A version-1 key line: its version-1 key id and base64 X.509 public key. Never trusted for being named. */
    default void keyV1(String keyId, String publicKeyBase64, long line) {
    }

    /** A checkpoint note of log {@code log} for a tree of {@code size} records. */
    default void checkpoint(String log, long size, String note, long line) {
    }

    /** A version-1 checkpoint. */
    default void checkpointV1(V1Checkpoint checkpoint, long line) {
    }

    /** Records of {@code log} up to {@code seq} were archived; {@code hash} is the last one's stored hash. */
    default void archive(String log, long seq, String hash, long line) {
    }

    /** A stored subtree hash (hex) of {@code log}. */
    default void node(String log, int level, long index, String hash, long line) {
    }

    /** Whether records' bytes or fields are read; if not (leaf hashes only), records may come without, sparing a copy. */
    default boolean needsRecordBytes() {
        return true;
    }

    /** A record and its stored hash. */
    default void record(CanonicalRecord record, String storedHash, long line) {
    }
}
