package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditUnavailableException;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The audit log's database failing during a read of staff (a connection ended mid-search, a failover): 503 with
 * {@code Retry-After}, as {@code /mcp} answers when its records cannot commit, in JSON or as the door the call came in
 * through answers ({@link LetInCall.Door}: a console page), naming the request id the call is on record under; a call
 * the audit log could not take the record of (nothing read) is 503 saying the log is unavailable, as before a record
 * exists nothing may be said to be on record. A failing database is a passing state, not a fault in the request: the
 * caller's tooling may try again. What failed goes to the server's log
 * only, as it may hold what was read. The record of how the call ended ({@code error}) is the answer's watch's, which
 * sees a server error no record explains; a read past the query timeout is {@link AuditQueryTimeoutMapper}'s.
 */
@Provider
public class AuditReadFailureMapper implements ExceptionMapper<AuditUnavailableException> {

    private static final Logger LOG = Logger.getLogger(AuditReadFailureMapper.class);
    private static final String WHY = "the audit log's database failed during this read";

    private final RoutingContext rc;

    AuditReadFailureMapper(RoutingContext rc) {
        this.rc = rc;
    }

    @Override
    public Response toResponse(AuditUnavailableException e) {
        LetInCall call = LetInCall.of(rc);
        String requestId = call == null ? null : call.requestId();
        LOG.errorf(e, "%s %s%s: the audit log is unavailable", rc.request().method(), rc.normalizedPath(),
                requestId == null ? "" : " (request " + requestId + ")");
        if (call != null && call.door() != null) {
            return call.door().failed(WHY, requestId);
        }
        if (requestId == null) {
            // Not let in: the audit log could not take the call's record, and nothing was read.
            return unavailable().entity(Map.of("error", "the audit log is unavailable; nothing was read")).build();
        }
        return unavailable().header("X-Request-Id", requestId)
                .entity(Map.of("error", WHY + "; the call is on record as let in, and as not answered")).build();
    }

    private static Response.ResponseBuilder unavailable() {
        return Response.status(Response.Status.SERVICE_UNAVAILABLE).type(MediaType.APPLICATION_JSON).header("Retry-After", "5");
    }
}
