package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/** Publishes the checkpoint-signing public key, so auditors can pin it when verifying offline. */
@Path("/.well-known/quaestor-audit-key")
public class AuditKeyResource {

    private final AuditLog log;

    AuditKeyResource(AuditLog log) {
        this.log = log;
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> key() {
        return Map.of("keyId", log.keyId(), "algorithm", "Ed25519", "publicKey", log.publicKeyBase64(), "chain", log.chain());
    }
}
