package dev.quaestor.evidence.write;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.ExportReader;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.v1.V1Checkpoint;
import dev.quaestor.evidence.v1.V1Record;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an export (JSON Lines, docs/audit-format.md, section 6), one line per call, with
 * {@link JsonLinesWriter}: what {@link ExportReader} reads. The caller keeps the export's order: keys,
 * checkpoints, archive markers, nodes, then each log's records in {@code seq} order.
 */
public final class ExportWriter {

    private final JsonLinesWriter out;

    public ExportWriter(Appendable out) {
        this.out = new JsonLinesWriter(out);
    }

    public void key(VerifierKey key) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "key");
        m.put("vkey", key.toString());
        write(m);
    }

    /** A version-1 key line: its key id and its Ed25519 public key (base64). */
    public void keyV1(String keyId, String publicKeyBase64) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "key");
        m.put("keyId", keyId);
        m.put("publicKey", publicKeyBase64);
        write(m);
    }

    public void checkpoint(String log, Checkpoint checkpoint) throws IOException {
        checkpoint(log, checkpoint.size(), checkpoint.note());
    }

    public void checkpoint(String log, long size, String note) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "checkpoint");
        m.put("log", log);
        m.put("size", size);
        m.put("note", note);
        write(m);
    }

    public void checkpointV1(V1Checkpoint c) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "checkpoint");
        m.put("log", c.log());
        m.put("seq", c.seq());
        m.put("hash", c.hash());
        m.put("time", c.time());
        m.put("keyId", c.keyId());
        m.put("signature", c.signature());
        write(m);
    }

    public void archive(String log, long seq, String hash) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "archive");
        m.put("log", log);
        m.put("seq", seq);
        m.put("hash", hash);
        write(m);
    }

    public void node(String log, int level, long index, byte[] hash) throws IOException {
        var m = new LinkedHashMap<String, Object>();
        m.put("type", "node");
        m.put("log", log);
        m.put("level", level);
        m.put("index", index);
        m.put("hash", Hex.of(hash));
        write(m);
    }

    /**
     * A record: its present fields in the order of its format version, then its stored hash. A field
     * the format does not define is refused, since the hash would not cover it.
     */
    public void record(Map<String, String> fields, String storedHash) throws IOException {
        String v = fields.get("v");
        List<String> names = V1Record.VERSION.equals(v) ? V1Record.FIELDS : RecordFormat.fieldsOf(v);
        if (names == null) {
            throw new IllegalArgumentException("a record in an unknown format version: " + v);
        }
        var m = new LinkedHashMap<String, Object>(64);
        m.put("type", "record");
        int present = 0;
        for (String f : names) {
            String value = fields.get(f);
            if (value != null) {
                present++;
                // seq is written as a number, as the format's example shows; it reads back as the same text.
                m.put(f, f.equals("seq") && Decimal.parse(value) >= 0 ? (Object) Decimal.parse(value) : value);
            }
        }
        if (present != fields.values().stream().filter(value -> value != null).count()) {
            throw new IllegalArgumentException("a record field is not part of the format: " + fields.keySet());
        }
        m.put("hash", storedHash);
        write(m);
    }

    private void write(Map<String, Object> m) throws IOException {
        out.write(m);
    }
}
