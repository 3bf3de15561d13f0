package dev.quaestor.bench.audit;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.write.ExportWriter;
import dev.quaestor.testtsa.OpensslTsa;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;

/**
 * A log of records like the ones requests write (each a read's {@code OUTCOME} in format version 2, as
 * docs/audit-format.md defines it), with a checkpoint every 1,000 records and every stored node, as an
 * export; optionally each checkpoint time-stamped by OpenSSL's TSA (checkpoints then signed over the last minutes,
 * so that the tokens, made now, verify).
 */
final class SyntheticExport {

    private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    /** A log stores, and exports, the tree's nodes from this level up (docs/audit-format.md). */
    private static final int STORED_FROM_LEVEL = 4;

    private SyntheticExport() {
    }

    /** Writes the export of {@code n} records to {@code file}; {@code tsa}: anchors every checkpoint (null: none). Returns the verifier key. */
    static String write(Path file, int n, ExportKey key, OpensslTsa tsa) throws Exception {
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        Instant signed0 = Instant.now().minusSeconds(600);
        var tree = new Frontier();
        var nodes = new ArrayList<long[]>();
        var nodeHashes = new ArrayList<byte[]>();
        Path records = file.resolveSibling("records.tmp");
        var checkpoints = new ArrayList<Checkpoint>();
        try (var w = Files.newBufferedWriter(records, StandardCharsets.UTF_8)) {
            var out = new ExportWriter(w);
            for (int i = 1; i <= n; i++) {
                var f = record(i, t0.plusNanos(i * 1000L));
                byte[] leaf = RecordFormat.leafHash(f);
                tree.append(leaf, (level, index, hash) -> {
                    if (level >= STORED_FROM_LEVEL) {
                        nodes.add(new long[] {level, index});
                        nodeHashes.add(hash);
                    }
                });
                out.record(f, Hex.of(leaf));
                if (i % 1000 == 0 || i == n) {
                    Instant time = tsa == null ? t0.plusSeconds(i) : signed0.plusMillis(i / 10);
                    checkpoints.add(key.checkpoint("quaestor.audit/bench", i, tree.root(), time));
                }
            }
        }
        try (var w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            var out = new ExportWriter(w);
            out.key(key.verifierKey());
            for (var k : checkpoints) {
                String note = k.note();
                if (tsa != null) {
                    String text = note.substring(0, note.lastIndexOf("\n\n") + 1);
                    note = Anchor.attach(note, Anchor.field(tsa.stamp(text.getBytes(StandardCharsets.UTF_8))));
                }
                out.checkpoint("bench", k.size(), note);
            }
            for (int i = 0; i < nodes.size(); i++) {
                out.node("bench", (int) nodes.get(i)[0], nodes.get(i)[1], nodeHashes.get(i));
            }
            w.flush();
            try (var in = Files.newBufferedReader(records, StandardCharsets.UTF_8)) {
                in.transferTo(w);
            }
        }
        Files.delete(records);
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true); // measured reading an export that is on disk, not one the kernel is still writing back
        }
        return key.verifierKey().toString();
    }

    /** Record {@code seq} of log {@code bench}: user-7 of tenant acme read the handbook's welcome page in session s7. */
    private static Map<String, String> record(long seq, Instant time) {
        var m = new HashMap<String, String>(32);
        m.put("v", RecordFormat.V2);
        m.put("log", "bench");
        m.put("seq", Long.toString(seq));
        m.put("time", time.truncatedTo(ChronoUnit.MICROS).toString());
        m.put("request", "req-7-" + seq);
        m.put("kind", "OUTCOME");
        m.put("session", "s7");
        m.put("subject", "user-7");
        m.put("client", "bench-client");
        m.put("tenant", "acme");
        m.put("roles", "analyst");
        m.put("ip", "10.0.0.7");
        m.put("ua", "bench");
        m.put("client_info", "bench/1");
        m.put("protocol", "2025-11-25");
        m.put("method", "resources/read");
        m.put("action", "read");
        m.put("uri", "file:///docs/handbook/welcome.md");
        m.put("revision", "rev");
        m.put("outcome", "ok");
        m.put("bytes", "1024");
        m.put("sha256", SHA);
        m.put("cache_scope", "private");
        m.put("latency_us", "812");
        return m;
    }
}
