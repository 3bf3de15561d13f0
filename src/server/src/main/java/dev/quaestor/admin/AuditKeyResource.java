package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
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

    AuditKeyResource(AuditLog log) {
        this.log = log;
    }

    /** A key read is an administrative event (PCI DSS 10.2.1.2); recorded without waiting, as anyone may ask. */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> key(@Context HttpServerRequest request) {
        log.appendLater(AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next())
                .caller(Caller.anonymous(SourceAddress.of(request), request.getHeader("User-Agent"), null))
                .method("audit/key").decision("ALLOW").outcome("ok").build());
        return Map.of("vkey", log.verifierKey(), "keyId", log.keyId(), "algorithm", "Ed25519", "publicKey", log.publicKeyBase64(),
                "log", log.logId(), "origin", log.origin());
    }
}
