package dev.quaestor.admin;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.read.AuditQueryTimeout;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * An audit read past the audit query timeout, from the API or the console: 503 with what happened and how to
 * narrow the search, in JSON or as the door the call came in through answers ({@link LetInCall.Door}: a console page).
 * The call is on record already, as every audit read is, as {@code ok}: a second record under its request id says it
 * was not answered ({@code timeout}), so the first does not stand alone for an answer never given.
 */
@Provider
public class AuditQueryTimeoutMapper implements ExceptionMapper<AuditQueryTimeout> {

    private static final Logger LOG = Logger.getLogger(AuditQueryTimeoutMapper.class);

    private final long timeoutMs;
    private final RoutingContext rc;

    AuditQueryTimeoutMapper(AuditConfig config, RoutingContext rc) {
        this.timeoutMs = config.queryTimeoutMs();
        this.rc = rc;
    }

    @Override
    public Response toResponse(AuditQueryTimeout e) {
        String why = "the audit log's database did not finish this read within " + timeoutMs + " ms";
        LetInCall call = LetInCall.of(rc);
        String requestId = null;
        try {
            requestId = call == null ? null : call.notAnswered("timeout", "not answered: " + why);
        } catch (RuntimeException failed) {
            // The audit log cannot take it either: the call fails all the same, and its first record says it was let in.
            LOG.errorf("could not record that an audit read was not answered: %s", failed.getMessage());
        }
        if (call != null && call.door() != null) {
            return call.door().timedOut(why + " (quaestor.audit.query-timeout-ms)", requestId);
        }
        var response = Response.status(503).type(MediaType.APPLICATION_JSON)
                .entity(Map.of("error", why + " (quaestor.audit.query-timeout-ms): narrow it with a subject, a time range"
                        + " (from, to) or a longer uriPrefix"));
        if (requestId != null) {
            response.header("X-Request-Id", requestId);
        }
        return response.build();
    }
}
