package dev.quaestor.admin;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.http.SourceAddress;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * Publishes the checkpoint-signing key as a C2SP verifier key, so auditors can pin it when verifying
 * offline. Publishing it is not trusting it: compare it with the key your organisation holds.
 */
@Path("/.well-known/quaestor-audit-key")
public class AuditKeyResource {

    private final AuditLog log;
    private final KeyReads reads;

    AuditKeyResource(AuditLog log, KeyReads reads) {
        this.log = log;
        this.reads = reads;
    }

    /**
     * A key read is an administrative event (PCI DSS 10.2.1.2); as anyone may ask, it is recorded without waiting,
     * within a budget per address and in total, and counted past it ({@link KeyReads}).
     */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> key(@Context HttpServerRequest request) {
        reads.record(SourceAddress.of(request), request.getHeader("User-Agent"));
        return Map.of("vkey", log.verifierKey(), "keyId", log.keyId(), "algorithm", "Ed25519", "publicKey", log.publicKeyBase64(),
                "log", log.logId(), "origin", log.origin());
    }
}
