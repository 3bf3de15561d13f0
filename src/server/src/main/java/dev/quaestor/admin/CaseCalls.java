package dev.quaestor.admin;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CasesConfig;
import dev.quaestor.cases.ChangeRecorder;
import dev.quaestor.cases.Staff;
import dev.quaestor.identity.Identity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How a call about a case is let in and recorded: the caller must hold the auditor or the case administrator role,
 * through one of the staff's clients (else 403, on record); what reads the audit log through a case (adding a search or a request, reading the records
 * they find) needs the auditor role itself, since the case administrator role manages members and holds only (else
 * 403, on record under the case's uri); a read is recorded as {@code AUDIT_READ} before it reads anything of the audit
 * trail, a change as {@code ADMIN} before it is stored; a refusal is recorded with its outcome, then answered with its
 * status and reason, and the request id of its record in {@code X-Request-Id}. A call takes only its own query
 * parameters, each once: any other is refused 400 before anything is read or changed, on record as {@code invalid} with
 * why.
 *
 * <p>A change's record ({@code ALLOW}, {@code ok}) is not left alone for a change that did not happen, nor for an answer
 * the caller did not get, and what follows it says which: a change not stored after its record (its commit failed, or
 * it was refused once on record) gets a second record under its request id, {@code error} or the refusal's outcome,
 * saying it was not stored; a change stored whose answer then does not reach the client, or is a server error, gets
 * one saying it is stored and its answer was not delivered, {@code aborted} ({@link StaffAccess#stored}). So a
 * change on record as {@code ok} was stored unless an {@code error} (or a refusal) under its request id says otherwise.
 */
@RequestScoped
public class CaseCalls {

    private final StaffAccess access;
    private final StrictJson json;
    private final String auditorRole;
    private final String caseAdminRole;
    /** The request id of this call's change, once on record as not stored (then a refusal is not recorded again). */
    private String notStored;

    CaseCalls(StaffAccess access, AuditConfig audit, CasesConfig config, StrictJson json) {
        this.access = access;
        this.json = json;
        this.auditorRole = audit.auditorRole();
        this.caseAdminRole = config.adminRole();
    }

    /**
     * The caller, if they hold the auditor or the case administrator role and their client is one of
     * {@code quaestor.admin.staff-clients}; else 403 with why, on record as {@code kind} under the case's uri
     * ({@code caseId}; null for a call about no one case), so that a refused attempt names the case it was at.
     */
    Staff staff(HttpServerRequest http, AuditEvent.Kind kind, String method, Long caseId) {
        Identity who = access.identity();
        boolean admin = who.roles().contains(caseAdminRole);
        String clientRefused = access.clientRefused(who);
        if (clientRefused != null || !admin && !who.roles().contains(auditorRole)) {
            String why = clientRefused != null ? clientRefused
                    : "the role " + auditorRole + " or " + caseAdminRole + " is needed for cases and holds";
            String id = access.record(kind, new StaffAccess.Judged(method, caseId == null ? null : AuditCase.uriOf(caseId), false,
                    "forbidden", why), http);
            throw new WebApplicationException(Response.status(403).type(MediaType.APPLICATION_JSON).header("X-Request-Id", id)
                    .entity(Map.of("error", why)).build());
        }
        return new Staff(who.subject(), admin);
    }

    /**
     * The caller, if they hold the auditor role: {@code method} adds to what a case reads of the audit log, or reads it;
     * else 403, on record as {@code kind} under the case's uri.
     */
    Staff auditor(HttpServerRequest http, AuditEvent.Kind kind, String method, long caseId) {
        Staff staff = staff(http, kind, method, caseId);
        if (!access.identity().roles().contains(auditorRole)) {
            String why = "the role " + auditorRole + " is needed: searches, requests and their records are the auditor's";
            String id = access.record(kind, new StaffAccess.Judged(method, AuditCase.uriOf(caseId), false, "forbidden", why), http);
            throw new WebApplicationException(Response.status(403).type(MediaType.APPLICATION_JSON).header("X-Request-Id", id)
                    .entity(Map.of("error", why)).build());
        }
        return staff;
    }

    /**
     * Refuses a call given a query parameter it does not take (one not in {@code accepted}), or one given twice: 400
     * with what was wrong ({@link InvalidQuery}), on record as {@code kind}, {@code invalid}, with why, under the case's
     * uri (none for a call about no one case). Made once the caller is let in as staff, before anything is read or changed.
     */
    void takesOnly(List<String> accepted, HttpServerRequest http, AuditEvent.Kind kind, String method, Long caseId) {
        try {
            QueryCheck.only(http.params(), accepted);
        } catch (InvalidQuery e) {
            String uri = caseId == null ? null : AuditCase.uriOf(caseId);
            String id = access.record(kind, new StaffAccess.Judged(method, uri, false, "invalid", e.getMessage()), http);
            throw new WebApplicationException(e.response(id));
        }
    }

    /**
     * The call's JSON body read strictly ({@link StrictJson}; null when empty): one that is not JSON, or holds a field
     * the call does not take, a value of another type, a field twice or a NUL character, is refused 400 naming it, on
     * record as {@code ADMIN}, {@code invalid}, with why, under the case's uri. Read once the caller is let in as
     * staff, so that a body from anyone else is refused for who sent it, on record, and never parsed.
     */
    <T> T body(String text, Class<T> type, HttpServerRequest http, String method, Long caseId) {
        StrictJson.Read<T> read = json.read(text, type);
        if (!read.refused()) {
            return read.value();
        }
        String uri = caseId == null ? null : AuditCase.uriOf(caseId);
        String id = access.record(AuditEvent.Kind.ADMIN, new StaffAccess.Judged(method, uri, false, "invalid", read.error()), http);
        throw new WebApplicationException(Response.fromResponse(read.response()).type(MediaType.APPLICATION_JSON)
                .header("X-Request-Id", id).build());
    }

    /**
     * Puts a change on record ({@code ADMIN}, allowed) under the uri the change names: {@code ok} as the change let in,
     * before it is stored ({@link StaffAccess#changing}); any other outcome (the change recorded, then not stored) under
     * the same request id, as how it ended ({@link StaffAccess#notAnswered}).
     */
    ChangeRecorder recorder(String method, HttpServerRequest http) {
        return (uri, outcome, detail) -> {
            if ("ok".equals(outcome)) {
                return access.changing(method, uri, detail, http);
            }
            String id = access.notAnswered(outcome, detail);
            if (id == null) { // no change of this call on record as let in: the record stands on its own
                id = access.record(AuditEvent.Kind.ADMIN, new StaffAccess.Judged(method, uri, true, outcome, detail), http);
            }
            notStored = id;
            return id;
        };
    }

    /**
     * Records a read that was allowed, under the case's uri (none for the list of cases), before it reads what it answers
     * with: a later failure, or an answer that does not reach the client, gets a second record under its request id.
     */
    String read(String method, Long caseId, String detail, HttpServerRequest http) {
        return access.letIn(AuditEvent.Kind.AUDIT_READ, method, caseId == null ? null : AuditCase.uriOf(caseId), detail, http);
    }

    /**
     * A read already on record as let in ({@link #read}) refused after all: a second record under its request id says
     * so, with the refusal's outcome and reason; then it is answered with the refusal's status and reason.
     */
    Response notAnswered(CaseRefusal r) {
        String requestId = access.notAnswered(r.outcome(), r.getMessage());
        var response = Response.status(r.status()).entity(Map.of("error", r.getMessage()));
        return (requestId == null ? response : response.header("X-Request-Id", requestId)).build();
    }

    /**
     * A change: made (and recorded before it is stored) by {@code change}, its answer then watched as a change stored
     * ({@link StaffAccess#stored}); a refusal recorded and answered (once, if it came after the change's record: that
     * it was not stored is on record under the change's request id already).
     */
    Response change(String method, Long caseId, HttpServerRequest http, Supplier<Response> change) {
        Response answer;
        try {
            answer = change.get();
        } catch (CaseRefusal r) {
            if (notStored != null) {
                return Response.status(r.status()).header("X-Request-Id", notStored).entity(Map.of("error", r.getMessage())).build();
            }
            return refused(AuditEvent.Kind.ADMIN, method, caseId, r, http);
        }
        access.stored();
        return answer;
    }

    /** Records the refusal, then answers it: the status, the reason (for a case not seen, the same as for none), the record's id. */
    Response refused(AuditEvent.Kind kind, String method, Long caseId, CaseRefusal r, HttpServerRequest http) {
        String uri = caseId == null ? null : AuditCase.uriOf(caseId);
        String id = access.record(kind, new StaffAccess.Judged(method, uri, false, r.outcome(), r.getMessage()), http);
        return Response.status(r.status()).header("X-Request-Id", id).entity(Map.of("error", r.getMessage())).build();
    }
}
