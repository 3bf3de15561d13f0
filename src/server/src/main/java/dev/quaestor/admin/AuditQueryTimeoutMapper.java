package dev.quaestor.admin;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.read.AuditQueryTimeout;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;

/**
 * An audit read past the audit query timeout, from the API or the console: 503 with what happened and how to
 * narrow the search (the call itself is on record already, as every audit read is).
 */
@Provider
public class AuditQueryTimeoutMapper implements ExceptionMapper<AuditQueryTimeout> {

    private final long timeoutMs;

    AuditQueryTimeoutMapper(AuditConfig config) {
        this.timeoutMs = config.queryTimeoutMs();
    }

    @Override
    public Response toResponse(AuditQueryTimeout e) {
        return Response.status(503).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", "the audit log's database did not finish this read within " + timeoutMs + " ms "
                        + "(quaestor.audit.query-timeout-ms): narrow it with a subject, a time range (from, to) or a longer uriPrefix"))
                .build();
    }
}
