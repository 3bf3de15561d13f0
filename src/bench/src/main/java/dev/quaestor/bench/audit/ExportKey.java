package dev.quaestor.bench.audit;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.write.NoteSigner;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.time.Instant;

/** A throw-away Ed25519 key that signs a synthetic export's checkpoints, named as a server names its log's key. */
final class ExportKey {

    private final PrivateKey privateKey;
    private final VerifierKey verifierKey;

    private ExportKey(PrivateKey privateKey, VerifierKey verifierKey) {
        this.privateKey = privateKey;
        this.verifierKey = verifierKey;
    }

    static ExportKey generate() throws GeneralSecurityException {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        return new ExportKey(pair.getPrivate(), VerifierKey.of("quaestor.audit", pair.getPublic()));
    }

    /** Signs a checkpoint of {@code origin}'s tree. */
    Checkpoint checkpoint(String origin, long size, byte[] root, Instant time) {
        return NoteSigner.checkpoint(origin, size, root, time, verifierKey, privateKey);
    }

    /** What a verifier pins to check the export. */
    VerifierKey verifierKey() {
        return verifierKey;
    }
}
