package dev.quaestor.audit.read;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.v1.V1Checkpoint;
import dev.quaestor.evidence.write.ExportWriter;
import java.io.IOException;
import java.io.UncheckedIOException;

/** An {@link ExportSink} that writes each line of the export with the verifier's own {@link ExportWriter}. */
final class ExportLines implements ExportSink {

    private final ExportWriter out;

    ExportLines(Appendable out) {
        this.out = new ExportWriter(out);
    }

    @Override
    public void key(String vkey, long line) {
        io(() -> out.key(dev.quaestor.evidence.VerifierKey.parse(vkey)));
    }

    @Override
    public void keyV1(String keyId, String publicKeyBase64, long line) {
        io(() -> out.keyV1(keyId, publicKeyBase64));
    }

    @Override
    public void checkpoint(String log, long size, String note, long line) {
        io(() -> out.checkpoint(log, size, note));
    }

    @Override
    public void checkpointV1(V1Checkpoint c, long line) {
        io(() -> out.checkpointV1(c));
    }

    @Override
    public void archive(String log, long seq, String hash, long line) {
        io(() -> out.archive(log, seq, hash));
    }

    @Override
    public void node(String log, int level, long index, String hash, long line) {
        io(() -> out.node(log, level, index, Hex.hash(hash)));
    }

    @Override
    public void record(CanonicalRecord record, String storedHash, long line) {
        io(() -> out.record(record.fields(), storedHash));
    }

    private interface Io {
        void run() throws IOException;
    }

    private static void io(Io step) {
        try {
            step.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
