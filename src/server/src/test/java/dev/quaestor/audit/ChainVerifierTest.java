package dev.quaestor.audit;

import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChainVerifierTest {

    private static List<Map<String, String>> chain(int n) {
        var out = new ArrayList<Map<String, String>>();
        String prev = ChainVerifier.GENESIS;
        var sha = ChainVerifier.newDigest();
        for (int i = 1; i <= n; i++) {
            var e = new AuditEvent(Instant.parse("2026-01-01T00:00:00Z").plusSeconds(i), "r" + i, AuditEvent.Kind.DECISION,
                    new Caller("alice", null, null, List.of("pi"), "10.0.0.1", "ua\nwith newline", "s", null, null, null), null, "resources/read", "read",
                    "file:///a/" + i, "ALLOW", List.of("rule"), "rev", null, null, null, null, null, null, null, null, null, null, null);
            var f = AuditRecords.fields(e, "c1", i, prev, e.time());
            String h = ChainVerifier.hash(sha, f);
            f.put("hash", h);
            out.add(f);
            prev = h;
        }
        return out;
    }

    private static SigningKey key() {
        return SigningKey.load(new TestConfig(Optional.empty(), true));
    }

    private static ChainVerifier.Checkpoint sign(SigningKey k, Map<String, String> record) {
        String time = "2026-01-01T01:00:00Z";
        long seq = Long.parseLong(record.get("seq"));
        byte[] sig = k.sign(ChainVerifier.checkpointPayload("c1", seq, record.get("hash"), time));
        return new ChainVerifier.Checkpoint("c1", seq, record.get("hash"), time, k.keyId(), Base64.getEncoder().encodeToString(sig));
    }

    private static ChainVerifier.Report verify(SigningKey k, List<ChainVerifier.Checkpoint> cps, List<Map<String, String>> records) {
        var v = new ChainVerifier(Map.of(k.keyId(), k.publicKey()), false);
        cps.forEach(c -> v.checkpoint(c, 0));
        for (int i = 0; i < records.size(); i++) {
            v.record(records.get(i), i + 1);
        }
        return v.finish();
    }

    @Test
    void intactChainWithCheckpointsVerifies() {
        var k = key();
        var recs = chain(10);
        var r = verify(k, List.of(sign(k, recs.get(4)), sign(k, recs.get(9))), recs);
        assertTrue(r.ok(), r.toString());
        assertEquals(2, r.chains().get(0).checkpoints());
        assertEquals(0, r.chains().get(0).unsignedTail());
    }

    @Test
    void truncatingTheSignedTailIsFound() {
        var k = key();
        var recs = chain(10);
        var r = verify(k, List.of(sign(k, recs.get(9))), recs.subList(0, 7));
        assertFalse(r.ok());
        assertEquals(8, r.problems().get(0).seq());
        assertTrue(r.problems().get(0).message().contains("truncated"), r.problems().toString());
    }

    @Test
    void rewritingHistoryBehindACheckpointIsFoundEvenWithValidHashes() {
        var k = key();
        var recs = chain(6);
        var cp = sign(k, recs.get(5));
        // A superuser rebuilds the whole chain with a changed record: every hash is consistent again...
        var forged = new ArrayList<Map<String, String>>();
        String prev = ChainVerifier.GENESIS;
        var sha = ChainVerifier.newDigest();
        for (var rec : recs) {
            var f = new HashMap<>(rec);
            if (f.get("seq").equals("3")) {
                f.put("subject", "mallory");
            }
            f.put("prev", prev);
            f.put("hash", ChainVerifier.hash(sha, f));
            prev = f.get("hash");
            forged.add(f);
        }
        // ...but cannot re-sign the checkpoint without the key.
        var r = verify(k, List.of(cp), forged);
        assertFalse(r.ok());
        assertEquals(6, r.problems().get(0).seq());
        assertTrue(r.problems().get(0).message().contains("checkpoint"));
    }

    @Test
    void aCheckpointSignedByAnotherKeyIsRejected() throws Exception {
        var k = key();
        var other = key();
        var recs = chain(3);
        var r = verify(k, List.of(sign(other, recs.get(2))), recs);
        assertFalse(r.ok());
        assertTrue(r.problems().get(0).message().contains("unknown key"));
    }

    @Test
    void aConfiguredKeyDerivesItsPublicHalf() throws Exception {
        var kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String pkcs8 = Base64.getEncoder().encodeToString(kp.getPrivate().getEncoded());
        var k = SigningKey.load(new TestConfig(Optional.of(pkcs8), false));
        assertEquals(Base64.getEncoder().encodeToString(kp.getPublic().getEncoded()), k.publicKeyBase64());
        var recs = chain(2);
        assertTrue(verify(k, List.of(sign(k, recs.get(1))), recs).ok());
    }

    @Test
    void jsonLinesRoundTripThroughTheToolsParser() {
        var rec = chain(1).get(0);
        var keys = new ArrayList<>(ChainVerifier.FIELDS);
        keys.add("hash");
        var parsed = ChainVerifier.parseFlatJson(AuditReader.json(rec, keys).trim());
        assertEquals(ChainVerifier.hash(ChainVerifier.newDigest(), rec), ChainVerifier.hash(ChainVerifier.newDigest(), parsed));
        assertEquals("ua\nwith newline", parsed.get("ua"));
    }

    // ---- the offline tool on export files ----

    /** Records with awkward values: escapes, newlines, non-ASCII, a character beyond U+FFFF, nulls. */
    private static List<Map<String, String>> awkwardChain(int n) {
        var out = new ArrayList<Map<String, String>>();
        String prev = ChainVerifier.GENESIS;
        var sha = ChainVerifier.newDigest();
        for (int i = 1; i <= n; i++) {
            var e = new AuditEvent(Instant.parse("2026-01-01T00:00:00.000123Z").plusSeconds(i), "r" + i, AuditEvent.Kind.OUTCOME,
                    new Caller("jos\u00e9 \"q\" \\ " + i, null, "t\u00fcrk", List.of("pi"), "10.0.0.1", "ua\twith\nnewline \ud83d\ude00", "s", null, null, null), null,
                    "resources/read", "read", "file:///\u00e4/" + i, "ALLOW", List.of("rule"), "rev", "ok", i % 2 == 0 ? -32003 : null,
                    (long) i, null, "ab".repeat(32), null, 17L, null, null, null, i == 3 ? "line1\u2028line2\u0001" : null);
            var f = AuditRecords.fields(e, "c1", i, prev, e.time());
            String h = ChainVerifier.hash(sha, f);
            f.put("hash", h);
            out.add(f);
            prev = h;
        }
        return out;
    }

    private static List<String> recordKeys() {
        var keys = new ArrayList<String>();
        keys.add("type");
        keys.addAll(ChainVerifier.FIELDS);
        keys.add("hash");
        return keys;
    }

    /** An export file as the server writes it: key, checkpoints, markers, then records. */
    private static Path exportFile(Path dir, SigningKey k, List<ChainVerifier.Checkpoint> cps, List<String> markers,
            List<Map<String, String>> records) throws Exception {
        var sb = new StringBuilder();
        sb.append(AuditReader.json(Map.of("type", "key", "keyId", k.keyId(), "publicKey", k.publicKeyBase64()),
                List.of("type", "keyId", "publicKey")));
        for (var c : cps) {
            sb.append(AuditReader.json(Map.of("type", "checkpoint", "chain", c.chain(), "seq", Long.toString(c.seq()), "hash", c.hash(),
                    "time", c.time(), "keyId", c.keyId(), "signature", c.signature()),
                    List.of("type", "chain", "seq", "hash", "time", "keyId", "signature")));
        }
        markers.forEach(sb::append);
        for (var r : records) {
            var m = new HashMap<>(r);
            m.put("type", "record");
            sb.append(AuditReader.json(m, recordKeys()));
        }
        Path f = dir.resolve("export-" + System.nanoTime() + ".jsonl");
        java.nio.file.Files.writeString(f, sb.toString());
        return f;
    }

    private static String marker(Map<String, String> record) {
        return "{\"type\":\"archive\",\"chain\":\"c1\",\"seq\":\"" + record.get("seq") + "\",\"hash\":\"" + record.get("hash")
                + "\",\"archivedAt\":\"2026-02-01T00:00:00Z\"}\n";
    }

    private static String runTool(Path file, SigningKey k, String... extra) throws Exception {
        var args = new ArrayList<>(List.of(file.toString(), "--trust", k.publicKeyBase64()));
        args.addAll(List.of(extra));
        var out = new java.io.ByteArrayOutputStream();
        int code = ChainVerifier.run(args.toArray(String[]::new), new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8));
        return code + " " + out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @org.junit.jupiter.api.io.TempDir
    Path tmp;

    @Test
    void theToolVerifiesAnExportWithAwkwardValues() throws Exception {
        var k = key();
        var recs = awkwardChain(6);
        String out = runTool(exportFile(tmp, k, List.of(sign(k, recs.get(5))), List.of(), recs), k);
        assertTrue(out.startsWith("0 ") && out.contains("VERIFIED: 6 records"), out);
    }

    @Test
    void theToolReadsOtherJsonLayoutsTheSameWay() throws Exception {
        // PostgreSQL's json_build_object (used by the archive export) writes "key" : value with spaces,
        // and a record's keys may come in any order: the general parser must agree with the fast one.
        var k = key();
        var recs = awkwardChain(4);
        var keys = recordKeys();
        java.util.Collections.reverse(keys);
        var sb = new StringBuilder(java.nio.file.Files.readString(exportFile(tmp, k, List.of(sign(k, recs.get(3))), List.of(), List.of())));
        for (var r : recs) {
            var m = new HashMap<>(r);
            m.put("type", "record");
            sb.append(AuditReader.json(m, keys).replace("\":", "\" : ").replace(",\"", ", \""));
        }
        Path f = tmp.resolve("layout.jsonl");
        java.nio.file.Files.writeString(f, sb.toString().replace("\n", "\r\n"));
        String out = runTool(f, k);
        assertTrue(out.startsWith("0 ") && out.contains("VERIFIED: 4 records"), out);
    }

    @Test
    void theToolNamesAnAlteredRecordInAFile() throws Exception {
        var k = key();
        var recs = awkwardChain(6);
        recs.get(2).put("ua", "ua\twith\nnewline \ud83d\ude01"); // one code point changed, hash kept
        String out = runTool(exportFile(tmp, k, List.of(sign(k, recs.get(5))), List.of(), recs), k);
        assertTrue(out.startsWith("1 ") && out.contains("record altered") && out.contains("seq 3, line 5"), out);
    }

    @Test
    void anArchiveMarkerPinnedByACheckpointStartsTheChainAfterIt() throws Exception {
        var k = key();
        var recs = awkwardChain(10);
        var cps = List.of(sign(k, recs.get(4)), sign(k, recs.get(9)));
        String out = runTool(exportFile(tmp, k, cps, List.of(marker(recs.get(4))), recs.subList(5, 10)), k);
        assertTrue(out.startsWith("0 ") && out.contains("VERIFIED: 5 records") && out.contains("archived up to seq 5"), out);

        // The first record after the marker deleted: a gap right after the archive.
        out = runTool(exportFile(tmp, k, cps, List.of(marker(recs.get(4))), recs.subList(6, 10)), k);
        assertTrue(out.startsWith("1 ") && out.contains("records missing") && out.contains("seq 6"), out);

        // A marker at a seq no checkpoint pins (someone deleted older records and wrote a marker).
        out = runTool(exportFile(tmp, k, cps, List.of(marker(recs.get(3))), recs.subList(4, 10)), k);
        assertTrue(out.startsWith("1 ") && out.contains("archive marker at seq 4 is not pinned"), out);

        // Records altered after the archive are still caught.
        recs.get(7).put("subject", "mallory");
        out = runTool(exportFile(tmp, k, cps, List.of(marker(recs.get(4))), recs.subList(5, 10)), k);
        assertTrue(out.startsWith("1 ") && out.contains("record altered") && out.contains("seq 8"), out);
    }

    private record TestConfig(Optional<String> signingKey, boolean generateKey) implements AuditConfig {
        public Optional<String> chainId() {
            return Optional.empty();
        }

        public int queueCapacity() {
            return 10;
        }

        public int maxBatch() {
            return 10;
        }

        public java.time.Duration commitTimeout() {
            return java.time.Duration.ofSeconds(1);
        }

        public int checkpointEvery() {
            return 10;
        }

        public java.time.Duration checkpointInterval() {
            return java.time.Duration.ofSeconds(1);
        }

        public Optional<String> signingKeyFile() {
            return Optional.empty();
        }

        public Optional<List<String>> hashedFields() {
            return Optional.empty();
        }

        public Optional<String> hmacKey() {
            return Optional.empty();
        }

        public String auditorRole() {
            return "quaestor-auditor";
        }
    }
}
