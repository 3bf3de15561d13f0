package dev.quaestor.admin;

import dev.quaestor.audit.AuditConfig;
import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditRow;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRecords;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CaseView;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.CasesConfig;
import dev.quaestor.cases.ChangeRecorder;
import dev.quaestor.cases.NewCase;
import dev.quaestor.cases.Staff;
import dev.quaestor.identity.Identity;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Cases for compliance staff ({@code quaestor.audit.auditor-role} or {@code quaestor.cases.admin-role}): list, open, and
 * change a case (members, searches, requests, notes). A case is answered only to its members and to the case
 * administrator role; to anyone else it does not exist (404). Every call is recorded under the case's uri, allowed or
 * refused: reads as {@code AUDIT_READ}, changes as {@code ADMIN}, each change before it is stored.
 */
@Path("/audit/cases")
@Produces(MediaType.APPLICATION_JSON)
public class CaseResource {

    public record MemberBody(String member) {
    }

    public record SearchBody(String name, String query) {
    }

    public record RequestBody(String requestId) {
    }

    public record NoteBody(String text) {
    }

    private final Cases cases;
    private final CaseRecords records;
    private final StaffAccess access;
    private final String auditorRole;
    private final String caseAdminRole;

    CaseResource(Cases cases, CaseRecords records, StaffAccess access, AuditConfig audit, CasesConfig config) {
        this.cases = cases;
        this.records = records;
        this.access = access;
        this.auditorRole = audit.auditorRole();
        this.caseAdminRole = config.adminRole();
    }

    @GET
    public Response list(@Context HttpServerRequest http) {
        Staff staff = staff(http, AuditEvent.Kind.AUDIT_READ, "audit/cases/list", null);
        var mine = cases.visibleTo(staff);
        access.record(AuditEvent.Kind.AUDIT_READ, new StaffAccess.Judged("audit/cases/list", null, true, "ok",
                mine.size() + " case(s)"), http);
        return Response.ok(Map.of("cases", mine)).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(NewCase body, @Context HttpServerRequest http) {
        String method = "audit/cases/create";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        if (body == null) {
            return refused(AuditEvent.Kind.ADMIN, method, null, CaseRefusal.invalid("a JSON body is required: {\"title\":…,\"description\":…,\"members\":[…]}"),
                    http);
        }
        return change(method, null, http, () -> Response.status(201).entity(cases.create(staff, body, recorder(method, http))).build());
    }

    @GET
    @Path("{id}")
    public Response open(@PathParam("id") long id, @Context HttpServerRequest http) {
        return read(id, "audit/cases/open", http, c -> c);
    }

    @GET
    @Path("{id}/records")
    public Response caseRecords(@PathParam("id") long id, @Context HttpServerRequest http) {
        return read(id, "audit/cases/records", http, c -> {
            var counted = records.of(c);
            var out = new LinkedHashMap<String, Object>();
            out.put("requests", counted.requests().stream().map(r -> Map.of("requestId", r.requestId(), "count", r.count(),
                    "records", r.records().stream().map(AuditRow::json).toList())).toList());
            out.put("searches", counted.searches());
            return out;
        });
    }

    @GET
    @Path("{id}/history")
    public Response history(@PathParam("id") long id, @Context HttpServerRequest http) {
        return read(id, "audit/cases/history", http, c -> Map.of("records", records.history(id).stream().map(AuditRow::json).toList()));
    }

    @POST
    @Path("{id}/members")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addMember(@PathParam("id") long id, MemberBody body, @Context HttpServerRequest http) {
        String method = "audit/cases/add-member";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        return change(method, id, http, () -> Response.ok(cases.addMember(id, staff, body == null ? null : body.member(),
                recorder(method, http))).build());
    }

    @DELETE
    @Path("{id}/members/{member}")
    public Response removeMember(@PathParam("id") long id, @PathParam("member") String member, @Context HttpServerRequest http) {
        String method = "audit/cases/remove-member";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        return change(method, id, http, () -> Response.ok(cases.removeMember(id, staff, member, recorder(method, http))).build());
    }

    @POST
    @Path("{id}/searches")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addSearch(@PathParam("id") long id, SearchBody body, @Context HttpServerRequest http) {
        String method = "audit/cases/add-search";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        return change(method, id, http, () -> Response.ok(cases.addSearch(id, staff, body == null ? null : body.name(),
                body == null ? null : body.query(), recorder(method, http))).build());
    }

    @POST
    @Path("{id}/requests")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addRequest(@PathParam("id") long id, RequestBody body, @Context HttpServerRequest http) {
        String method = "audit/cases/add-request";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        String rid = body == null || body.requestId() == null ? null : body.requestId().strip();
        return change(method, id, http, () -> Response.ok(cases.addRequest(id, staff, rid,
                rid != null && !rid.isEmpty() && rid.length() <= 64 && records.exists(rid), recorder(method, http))).build());
    }

    @POST
    @Path("{id}/notes")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addNote(@PathParam("id") long id, NoteBody body, @Context HttpServerRequest http) {
        String method = "audit/cases/add-note";
        Staff staff = staff(http, AuditEvent.Kind.ADMIN, method, null);
        return change(method, id, http, () -> Response.ok(cases.addNote(id, staff, body == null ? null : body.text(),
                recorder(method, http))).build());
    }

    /** A read of a case: refused as absent unless the caller sees it; else recorded, then answered. */
    private Response read(long id, String method, HttpServerRequest http, Function<CaseView, Object> answer) {
        Staff staff = staff(http, AuditEvent.Kind.AUDIT_READ, method, null);
        CaseView c;
        try {
            c = cases.open(id, staff);
        } catch (CaseRefusal r) {
            return refused(AuditEvent.Kind.AUDIT_READ, method, id, r, http);
        }
        Object body = answer.apply(c);
        access.record(AuditEvent.Kind.AUDIT_READ, new StaffAccess.Judged(method, c.uri(), true, "ok", null), http);
        return Response.ok(body).build();
    }

    /** The caller, if they hold the auditor or the case administrator role; else 403, on record. */
    private Staff staff(HttpServerRequest http, AuditEvent.Kind kind, String method, String detail) {
        Identity who = access.identity();
        boolean admin = who.roles().contains(caseAdminRole);
        if (!admin && !who.roles().contains(auditorRole)) {
            access.record(kind, new StaffAccess.Judged(method, null, false, "forbidden", detail), http);
            throw new ForbiddenException();
        }
        return new Staff(who.subject(), admin);
    }

    private ChangeRecorder recorder(String method, HttpServerRequest http) {
        return (uri, detail) -> access.record(AuditEvent.Kind.ADMIN, new StaffAccess.Judged(method, uri, true, "ok", detail), http);
    }

    /** A change: made, and recorded before it is stored, by {@code change}; a refusal recorded and answered. */
    private Response change(String method, Long caseId, HttpServerRequest http, Supplier<Response> change) {
        try {
            return change.get();
        } catch (CaseRefusal r) {
            return refused(AuditEvent.Kind.ADMIN, method, caseId, r, http);
        }
    }

    /** Records the refusal, then answers it: the status, and the reason (for a case not seen, the same as for none). */
    private Response refused(AuditEvent.Kind kind, String method, Long caseId, CaseRefusal r, HttpServerRequest http) {
        String uri = caseId == null ? null : AuditCase.uriOf(caseId);
        access.record(kind, new StaffAccess.Judged(method, uri, false, r.outcome(), r.getMessage()), http);
        return Response.status(r.status()).entity(Map.of("error", r.getMessage())).build();
    }
}
