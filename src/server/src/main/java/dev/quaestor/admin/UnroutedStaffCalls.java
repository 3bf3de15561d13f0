package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;

/**
 * A call to the staff side (the auditor API, the administrator API, the console) that names no call it answers: a path
 * no resource has, a method its path does not take, an id that is not a number where one is taken. It is answered as
 * routing answers it (404; 405 with {@code Allow}), and is on record first, {@code DENY} {@code invalid}, with the
 * method and path, under the answer's {@code X-Request-Id}: every call to the staff side is recorded, allowed or not,
 * whoever makes it. Elsewhere the answer is routing's, unrecorded.
 */
final class UnroutedStaffCalls {

    private static final Logger LOG = Logger.getLogger(UnroutedStaffCalls.class);
    /** The width of the audit record's method column. */
    private static final int METHOD_COLUMN = 64;

    private UnroutedStaffCalls() {
    }

    /** The answer to {@code e}: on record first where the path is the staff side's. */
    static Response answer(ClientErrorException e, RoutingContext rc, StaffAccess access) {
        String path = rc.normalizedPath();
        AuditEvent.Kind kind = path.startsWith("/admin/") || path.equals("/admin") ? AuditEvent.Kind.ADMIN
                : path.startsWith("/audit/") || path.equals("/audit") || path.startsWith("/console/") || path.equals("/console")
                        ? AuditEvent.Kind.AUDIT_READ : null;
        if (kind == null) {
            return e.getResponse();
        }
        String call = rc.request().method().name() + " " + path;
        String method = call.length() <= METHOD_COLUMN ? call : call.substring(0, METHOD_COLUMN);
        String detail = "no such call: " + call + (e instanceof NotAllowedException ? " (405: a method the path does not take)"
                : " (404)");
        String id;
        try {
            id = access.record(kind, new StaffAccess.Judged(method, null, false, "invalid", detail), rc.request());
        } catch (RuntimeException unrecorded) {
            // No identity to record (signed out), or the log could not take it: answered as routing answers, nothing read.
            LOG.debugf("a call to no staff resource was not recorded: %s", unrecorded.toString());
            return e.getResponse();
        }
        return Response.fromResponse(e.getResponse()).header("X-Request-Id", id).build();
    }

    /** Routing's 404 under the staff side's paths. */
    @jakarta.ws.rs.ext.Provider
    public static class NotFound implements jakarta.ws.rs.ext.ExceptionMapper<NotFoundException> {

        private final RoutingContext rc;
        private final StaffAccess access;

        NotFound(RoutingContext rc, StaffAccess access) {
            this.rc = rc;
            this.access = access;
        }

        @Override
        public Response toResponse(NotFoundException e) {
            return answer(e, rc, access);
        }
    }

    /** Routing's 405 under the staff side's paths. */
    @jakarta.ws.rs.ext.Provider
    public static class NotAllowed implements jakarta.ws.rs.ext.ExceptionMapper<NotAllowedException> {

        private final RoutingContext rc;
        private final StaffAccess access;

        NotAllowed(RoutingContext rc, StaffAccess access) {
            this.rc = rc;
            this.access = access;
        }

        @Override
        public Response toResponse(NotAllowedException e) {
            return answer(e, rc, access);
        }
    }
}
