package dev.quaestor.audit;

import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
                    new Caller("alice", null, null, List.of("pi"), "10.0.0.1", "ua\nwith newline", "s"), "resources/read", "read",
                    "file:///a/" + i, "ALLOW", List.of("rule"), "rev", null, null, null, null, null, null, null);
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
