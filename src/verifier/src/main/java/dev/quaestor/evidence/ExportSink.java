package dev.quaestor.evidence;

import dev.quaestor.evidence.v1.V1Checkpoint;

/**
 * What an export is made of (docs/audit-format.md, section 6), one call per line, in the export's
 * order: keys, checkpoints, archive markers, nodes, then records. {@code line} is where it was read
 * (the line number in a file; a row number when fed from elsewhere; 0 if unknown). What a sink does not
 * need, it leaves to these defaults, which ignore the line.
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

    /**
     * Whether this sink reads records' canonical bytes or fields; if not (it needs their leaf hashes
     * only), records read straight from the export may come without them, which spares copying each.
     */
    default boolean needsRecordBytes() {
        return true;
    }

    /** A record and its stored hash. */
    default void record(CanonicalRecord record, String storedHash, long line) {
    }
}
