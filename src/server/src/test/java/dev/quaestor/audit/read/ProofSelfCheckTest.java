package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.write.NoteSigner;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Proofs are checked as the verifier checks them before they are handed out; a checkpoint's signature once, and every
 * proof that leads to it for its own path: a proof whose path was changed fails even when its checkpoint was checked
 * already with another proof, and a checkpoint signed by a key nobody pinned fails every proof.
 */
class ProofSelfCheckTest {

    private static final Instant T = Instant.parse("2026-12-04T10:00:00Z");

    @Test
    void eachProofIsCheckedForItsPathAndACheckpointForItsSignature() throws Exception {
        byte[] r0 = record(1);
        byte[] r1 = record(2);
        byte[] l0 = TreeHash.leaf(r0);
        byte[] l1 = TreeHash.leaf(r1);
        byte[] root = TreeHash.node(l0, l1);
        var pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        var key = VerifierKey.of("quaestor.audit", pair.getPublic());
        String note = NoteSigner.checkpoint("quaestor.audit/vm", 2, root, T, key, pair.getPrivate()).note();
        var trusted = TrustedKeys.of(Set.of(key), List.of());

        var check = new ProofSelfCheck(trusted, null);
        assertNull(check.failure(new RecordProof(r0, 0, List.of(l1), note)), "the first, checked whole");
        assertNull(check.failure(new RecordProof(r1, 1, List.of(l0), note)), "the second, to a checkpoint checked already");
        String changed = check.failure(new RecordProof(r1, 1, List.of(l1), note));
        assertTrue(changed != null && changed.contains("not in the log as signed at 2 records"), changed);

        var stranger = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        var strangerKey = VerifierKey.of("quaestor.audit", stranger.getPublic());
        String forged = NoteSigner.checkpoint("quaestor.audit/vm", 2, root, T, strangerKey, stranger.getPrivate()).note();
        String untrusted = new ProofSelfCheck(trusted, null).failure(new RecordProof(r0, 0, List.of(l1), forged));
        assertTrue(untrusted != null, "a checkpoint no pinned key signed");
    }

    private static byte[] record(long seq) {
        var e = AuditEvent.of(AuditEvent.Kind.DECISION, "req-" + seq).method("resources/read").uri("file:///a.md")
                .decision("ALLOW").build();
        return AuditRecords.text(e, "vm", seq, T, FieldHasher.none()).canonicalBytes();
    }
}
