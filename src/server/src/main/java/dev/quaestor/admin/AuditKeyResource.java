package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * Publishes the checkpoint-signing key as a C2SP verifier key, so auditors can pin it when verifying
 * offline. Publishing it is not trusting it: compare it with the key your organisation holds.
 */
@Path("/.well-known/quaestor-audit-key")
public class AuditKeyResource {

    private final AuditLog log;

    AuditKeyResource(AuditLog log) {
        this.log = log;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> key() {
        return Map.of("vkey", log.verifierKey(), "keyId", log.keyId(), "algorithm", "Ed25519", "publicKey", log.publicKeyBase64(),
                "log", log.chain(), "origin", log.origin());
    }
}
