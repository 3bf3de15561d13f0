package dev.quaestor.evidence;

import dev.quaestor.evidence.check.LogVerifier;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.fast.FastExportReader;
import dev.quaestor.evidence.v1.V1Checkpoint;
import dev.quaestor.evidence.write.ExportWriter;
import dev.quaestor.evidence.write.NoteSigner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a log the way the server does, with this module's classes: records, their leaf hashes, the
 * tree, stored nodes (every complete subtree of 16 leaves or more; below that at month ends), signed
 * checkpoints and the export. Tests then tamper with the export's lines.
 */
public final class TestLog {

    /** A signing key with a fixed seed (test keys only). */
    public record Key(VerifierKey vkey, PrivateKey privateKey) {
        public static Key of(String name, int seed) {
            byte[] s = new byte[32];
            for (int i = 0; i < 32; i++) {
                s[i] = (byte) (seed * 31 + i);
            }
            try {
                var kpg = java.security.KeyPairGenerator.getInstance("Ed25519");
                kpg.initialize(java.security.spec.NamedParameterSpec.ED25519, new FixedRandom(s));
                var pair = kpg.generateKeyPair();
                return new Key(VerifierKey.of(name, pair.getPublic()), pair.getPrivate());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        public Checkpoint sign(String log, long size, byte[] root, Instant time) {
            return NoteSigner.checkpoint(vkey.name() + "/" + log, size, root, time, vkey, privateKey);
        }

        /** A version-1 signature (base64) over the version-1 checkpoint payload. */
        public String signV1(byte[] payload) {
            try {
                var s = Signature.getInstance("Ed25519");
                s.initSign(privateKey);
                s.update(payload);
                return Base64.getEncoder().encodeToString(s.sign());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        public String v1KeyId() {
            return V1Checkpoint.keyId(vkey.publicKey());
        }

        public String v1PublicKey() {
            return Base64.getEncoder().encodeToString(V1Checkpoint.x509(vkey.publicKey()));
        }
    }

    private static final class FixedRandom extends java.security.SecureRandom {
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public void nextBytes(byte[] out) {
            System.arraycopy(bytes, 0, out, 0, Math.min(bytes.length, out.length));
        }
    }

    public static final Instant T0 = Instant.parse("2026-11-25T19:04:35.123456Z");

    /** Record {@code seq} of {@code log}: varied, with awkward values now and then. */
    public static Map<String, String> record(String log, long seq) {
        var r = new LinkedHashMap<String, String>();
        r.put("v", "2");
        r.put("log", log);
        r.put("seq", Long.toString(seq));
        r.put("time", T0.plusNanos(seq * 1_000_123_000L).toString());
        r.put("request", "req-" + (seq + 1) / 2);
        r.put("kind", seq % 2 == 1 ? "DECISION" : "OUTCOME");
        r.put("session", "s-" + seq % 7);
        r.put("subject", seq % 5 == 0 ? "jos\u00e9 \"q\" \\ \ud83d\ude00" : "alice");
        r.put("client", "mcp-cli");
        r.put("tenant", "acme");
        r.put("roles", "analyst,reader");
        r.put("ip", "10.0.0." + seq % 250);
        r.put("ua", seq % 11 == 0 ? "ua\twith\nnewline" : "mcp-client/1.2");
        r.put("protocol", "2025-06-18");
        r.put("method", "resources/read");
        r.put("action", "read");
        r.put("uri", "file:///reports/q" + seq % 4 + "/" + seq + ".txt");
        r.put("decision", "ALLOW");
        r.put("rules", "r-analysts");
        r.put("revision", "3f2a9c0d1e2b3a4f5e6d7c8b9a0f1e2d3c4b5a69788796a5b4c3d2e1f0a9b8c7");
        if (seq % 2 == 0) {
            r.put("outcome", "ok");
            r.put("bytes", Long.toString(1000 + seq % 9000));
            r.put("sha256", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
            r.put("cache_scope", "private");
            r.put("latency_us", Long.toString(150 + seq % 1000));
        }
        if (seq % 13 == 0) {
            r.put("detail", "line1\u2028line2\u0001");
        }
        if (seq % 17 == 0) {
            summary(r, seq);
        }
        return r;
    }

    /**
     * Makes record {@code r} a summary of refused attempts in format version 3, as the server writes one: the
     * exact count, first and last time, the URIs its events named (each with its count) and how many more.
     */
    public static void summary(Map<String, String> r, long seq) {
        r.put("v", RecordFormat.V3);
        r.put("kind", "ATTEMPT_SUMMARY");
        r.put("decision", "DENY");
        r.put("outcome", "refused");
        r.put("error", "-32003");
        r.remove("bytes");
        r.remove("sha256");
        r.remove("cache_scope");
        r.remove("latency_us");
        r.remove("uri");
        r.put("count", Long.toString(40 + seq));
        r.put("first", T0.plusNanos(seq * 1_000_123_000L - 900_000_000L).toString());
        r.put("last", r.get("time"));
        r.put("uris", "30 file:///reports/secret/" + seq + ".txt\n10 file:///reports/jos\u00e9.txt");
        r.put("uris_more", Long.toString(seq));
    }

    public final Key key;
    public final String log;
    public final List<String> recordLines = new ArrayList<>();
    public final List<String> checkpointLines = new ArrayList<>();
    public final List<String> nodeLines = new ArrayList<>();
    public final Map<Long, Checkpoint> checkpoints = new LinkedHashMap<>();
    public final Frontier tree = new Frontier();
    private final StringBuilder buf = new StringBuilder();
    private final ExportWriter nodeWriter;
    private final ExportWriter recordWriter;
    private final ExportWriter checkpointWriter;
    private final StringBuilder nodeText = new StringBuilder();
    private final StringBuilder checkpointText = new StringBuilder();

    public TestLog(Key key, String log) {
        this.key = key;
        this.log = log;
        this.recordWriter = new ExportWriter(buf);
        this.nodeWriter = new ExportWriter(nodeText);
        this.checkpointWriter = new ExportWriter(checkpointText);
    }

    /** Appends records up to {@code seq} (inclusive), signing a checkpoint every {@code every} records. */
    public TestLog appendTo(long seq, long every) {
        while (tree.size() < seq) {
            append(record(log, tree.size() + 1));
            if (tree.size() % every == 0) {
                checkpoint();
            }
        }
        return this;
    }

    public void append(Map<String, String> r) {
        byte[] leaf = RecordFormat.leafHash(r);
        tree.append(leaf, (level, index, hash) -> {
            if (level >= 4) {
                node(level, index, hash);
            }
        });
        line(recordWriter, w -> w.record(r, Hex.of(leaf)));
        recordLines.add(take(buf));
    }

    /** Signs a checkpoint of the tree so far, at its last record's time, as a writer does. */
    public Checkpoint checkpoint() {
        return checkpointAt(T0.plusNanos(tree.size() * 1_000_123_000L));
    }

    /** Signs a checkpoint of the tree so far, at {@code time}. */
    public Checkpoint checkpointAt(Instant time) {
        var cp = key.sign(log, tree.size(), tree.root(), time);
        addCheckpoint(cp);
        return cp;
    }

    public void addCheckpoint(Checkpoint cp) {
        checkpoints.put(cp.size(), cp);
        line(checkpointWriter, w -> w.checkpoint(log, cp));
        checkpointLines.add(take(checkpointText));
    }

    /** The text of the checkpoint at {@code size}: what it signs, and what a time-stamp token is over. */
    public String text(long size) {
        String note = checkpoints.get(size).note();
        return note.substring(0, note.lastIndexOf("\n\n") + 1);
    }

    /** Carries {@code token} in the note of the checkpoint at {@code size} (its export line is rewritten). */
    public void anchor(long size, byte[] token) {
        Checkpoint cp = checkpoints.get(size);
        int i = new ArrayList<>(checkpoints.keySet()).indexOf(size);
        line(checkpointWriter, w -> w.checkpoint(log, size, Anchor.attach(cp.note(), Anchor.field(token))));
        checkpointLines.set(i, take(checkpointText));
    }

    /**
     * The end of a month: store the complete subtrees below level 4 on the tree's right edge (those the
     * tree of this size is made of), and sign a checkpoint.
     */
    public void monthEnd() {
        long end = tree.size();
        for (int level = 3; level >= 0; level--) {
            if ((end >>> level & 1) != 0) {
                node(level, (end >>> level) - 1, tree.edge(level));
            }
        }
        if (!checkpoints.containsKey(end)) {
            checkpoint();
        }
    }

    private void node(int level, long index, byte[] hash) {
        line(nodeWriter, w -> w.node(log, level, index, hash));
        nodeLines.add(take(nodeText));
    }

    /** The export's lines: the key, checkpoints, nodes, then the records. */
    public List<String> export() {
        var out = new ArrayList<String>();
        out.add(keyLine(key));
        out.addAll(checkpointLines);
        out.addAll(nodeLines);
        out.addAll(recordLines);
        return out;
    }

    /** The export after records 1 to {@code seq} were archived: a marker, and the records after it. */
    public List<String> exportArchivedThrough(long seq) {
        var out = new ArrayList<String>();
        out.add(keyLine(key));
        out.addAll(checkpointLines);
        String hash = Hex.of(RecordFormat.leafHash(record(log, seq)));
        out.add(markerLine(log, seq, hash));
        out.addAll(nodeLines);
        out.addAll(recordLines.subList((int) seq, recordLines.size()));
        return out;
    }

    public static String markerLine(String log, long seq, String hash) {
        var sb = new StringBuilder();
        line(new ExportWriter(sb), w -> w.archive(log, seq, hash));
        return take(sb);
    }

    public static String keyLine(Key key) {
        var sb = new StringBuilder();
        line(new ExportWriter(sb), w -> w.key(key.vkey()));
        return take(sb);
    }

    /** The line of record {@code seq} in {@code lines}. */
    public static int indexOfRecord(List<String> lines, long seq) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("{\"type\":\"record\"") && lines.get(i).contains(",\"seq\":" + seq + ",")) {
                return i;
            }
        }
        throw new IllegalArgumentException("no record " + seq);
    }

    /** The line of record {@code seq} of {@code log} in {@code lines}. */
    public static int indexOfRecordOf(List<String> lines, String log, long seq) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("{\"type\":\"record\"") && lines.get(i).contains("\"log\":\"" + log + "\",\"seq\":" + seq + ",")) {
                return i;
            }
        }
        throw new IllegalArgumentException("no record " + log + "/" + seq);
    }

    public static String text(List<String> lines) {
        return String.join("\n", lines) + "\n";
    }

    /**
     * Verifies the export's lines with the fast reader and with the plain reader, which must report
     * exactly the same (problems, lines and words included); returns the report.
     */
    public static Report verify(List<String> lines, TrustedKeys trusted, boolean partial) {
        return verify(lines, trusted, null, partial);
    }

    /** As {@link #verify(List, TrustedKeys, boolean)}, checking time-stamp tokens with {@code stamps} (null: not checked). */
    public static Report verify(List<String> lines, TrustedKeys trusted, TimeStampCheck stamps, boolean partial) {
        return verify(lines, trusted, stamps, partial, false);
    }

    /** As {@link #verify(List, TrustedKeys, TimeStampCheck, boolean)}; {@code allowTail}: as --allow-unsigned-tail. */
    public static Report verify(List<String> lines, TrustedKeys trusted, TimeStampCheck stamps, boolean partial, boolean allowTail) {
        return verify(lines, trusted, stamps, partial, allowTail, null);
    }

    /** As {@link #verify(List, TrustedKeys, TimeStampCheck, boolean, boolean)}; {@code maxGap}: as --max-anchor-gap. */
    public static Report verify(List<String> lines, TrustedKeys trusted, TimeStampCheck stamps, boolean partial, boolean allowTail,
            java.time.Duration maxGap) {
        byte[] bytes = text(lines).getBytes(StandardCharsets.UTF_8);
        Report fast = verify(bytes, trusted, stamps, partial, allowTail, maxGap, true);
        Report plain = verify(bytes, trusted, stamps, partial, allowTail, maxGap, false);
        if (!fast.equals(plain)) {
            throw new AssertionError("the fast and the plain reader disagree:\n" + fast + "\n" + plain);
        }
        return fast;
    }

    private static Report verify(byte[] export, TrustedKeys trusted, TimeStampCheck stamps, boolean partial, boolean allowTail,
            java.time.Duration maxGap, boolean fast) {
        var v = new LogVerifier(trusted, stamps, partial, allowTail, maxGap);
        try {
            if (fast) {
                FastExportReader.read(new java.io.ByteArrayInputStream(export), v);
            } else {
                ExportReader.read(new java.io.ByteArrayInputStream(export), v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ExportReader.Unreadable e) {
            throw new AssertionError(e.getMessage());
        }
        return v.finish();
    }

    public interface Write {
        void to(ExportWriter w) throws IOException;
    }

    private static void line(ExportWriter w, Write write) {
        try {
            write.to(w);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String take(StringBuilder sb) {
        String s = sb.substring(0, sb.length() - 1); // without the line end
        sb.setLength(0);
        return s;
    }
}
