package dev.quaestor.admin;

import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRecords;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CaseView;
import dev.quaestor.cases.HeldRecords;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.NewCase;
import dev.quaestor.cases.Staff;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Cases for compliance staff ({@code quaestor.audit.auditor-role} or {@code quaestor.cases.admin-role}): list, open, and
 * change a case (members, searches, requests, notes). A case is answered only to its members and to the case
 * administrator role; to anyone else it does not exist (404). Adding a search or a request, and reading the records
 * they find (a search's count too), need the auditor role (403 for the case administrator role alone, on record).
 * Every call is recorded under the case's uri, allowed or refused: reads as {@code AUDIT_READ}, each committed before
 * anything of the audit trail is read (a read then not answered gets a second record under its request id, as the
 * auditor API's calls do: {@link StaffAccess#notAnswered}, {@link AnswerWatch}), changes as {@code ADMIN}, each change
 * before it is stored (a change then not stored, or stored with its answer lost, gets a second record under its request
 * id saying which: {@link CaseCalls}). Reads of a case's records from the log (its records, a search's
 * count) are bounded ({@link CaseRecords}) and hold a place for a long read ({@link LongReads.Kind#CASE}; past the
 * cap, 429 with {@code Retry-After}, on record as {@code busy}). A call takes no query parameter but a page's cursor
 * ({@code before}) where a list is paged; any other, or one given twice, is refused 400, on record as {@code invalid}
 * ({@link CaseCalls#takesOnly}).
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

    /** The query parameters a call takes: none, or a page's cursor where it answers a page. */
    static final List<String> NONE = List.of();
    static final List<String> PAGED = List.of("before");

    private final Cases cases;
    private final CaseRecords records;
    private final CaseCalls calls;
    private final LongReads longReads;
    private final StaffAccess access;
    private final HeldRecords held;

    CaseResource(Cases cases, CaseRecords records, CaseCalls calls, LongReads longReads, StaffAccess access, HeldRecords held) {
        this.held = held;
        this.cases = cases;
        this.records = records;
        this.calls = calls;
        this.longReads = longReads;
        this.access = access;
    }

    /**
     * The caller's cases, newest first, a page at a time ({@link Cases#PAGE}): {@code cases}; {@code more} whether older
     * ones exist, and then {@code before}, the cursor to ask for them with ({@code ?before=…}).
     */
    @GET
    public Response list(@QueryParam("before") String before, @Context HttpServerRequest http) {
        String method = "audit/cases/list";
        Staff staff = calls.staff(http, AuditEvent.Kind.AUDIT_READ, method, null);
        calls.takesOnly(PAGED, http, AuditEvent.Kind.AUDIT_READ, method, null);
        Long from;
        try {
            from = Cases.cursor(before);
        } catch (CaseRefusal r) {
            return calls.refused(AuditEvent.Kind.AUDIT_READ, method, null, r, http);
        }
        var page = cases.visibleTo(staff, from);
        calls.read(method, null, page.cases().size() + " case(s)" + (from == null ? ", the newest" : " before case " + from), http);
        var out = new LinkedHashMap<String, Object>();
        out.put("cases", page.cases());
        out.put("more", page.next() != null);
        if (page.next() != null) {
            out.put("before", page.next().toString());
        }
        return Response.ok(out).build();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(String text, @Context HttpServerRequest http) {
        String method = "audit/cases/create";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, null);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, null);
        NewCase body = calls.body(text, NewCase.class, http, method, null);
        if (body == null) {
            return calls.refused(AuditEvent.Kind.ADMIN, method, null, CaseRefusal.invalid("a JSON body is required: {\"title\":…,\"description\":…,\"members\":[…]}"),
                    http);
        }
        return calls.change(method, null, http, () -> Response.status(201).entity(cases.create(staff, body, calls.recorder(method, http))).build());
    }

    @GET
    @Path("{id}")
    public Response open(@PathParam("id") long id, @Context HttpServerRequest http) {
        return read(id, "audit/cases/open", null, NONE, http, c -> () -> c);
    }

    /**
     * Each request of the case with its records, and each search with its count: the first
     * {@link CaseRecords#COUNTED_SEARCHES} counted, the others with {@code counted} false (count them with
     * {@code searches/{searchId}/count}); {@code requestsComplete} is false when the requests hold more records than one
     * read reads ({@link CaseRecords#MAX_REQUEST_ROWS}).
     */
    @GET
    @Path("{id}/records")
    public Response caseRecords(@PathParam("id") long id, @Context HttpServerRequest http) {
        calls.auditor(http, AuditEvent.Kind.AUDIT_READ, "audit/cases/records", id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.AUDIT_READ, "audit/cases/records", id);
        return longRead(id, "audit/cases/records", http, c -> () -> {
            var counted = records.of(c);
            var out = new LinkedHashMap<String, Object>();
            out.put("requests", counted.requests().stream().map(r -> Map.of("requestId", r.requestId(), "count", r.count(),
                    "records", r.records())).toList());
            out.put("requestsComplete", counted.requestsComplete());
            out.put("searches", counted.searches());
            return out;
        });
    }

    /** The count of one search of the case, on demand. */
    @GET
    @Path("{id}/searches/{searchId}/count")
    public Response searchCount(@PathParam("id") long id, @PathParam("searchId") long searchId, @Context HttpServerRequest http) {
        calls.auditor(http, AuditEvent.Kind.AUDIT_READ, "audit/cases/search-count", id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.AUDIT_READ, "audit/cases/search-count", id);
        return longRead(id, "audit/cases/search-count", http, c -> {
            var search = CaseRecords.searchOf(c, searchId);
            return () -> records.count(search);
        });
    }

    /**
     * The case's history, newest first, a page at a time: {@code records}; {@code more} whether older records exist, and
     * then {@code before}, the cursor to ask for them with ({@code ?before=…}).
     */
    @GET
    @Path("{id}/history")
    public Response history(@PathParam("id") long id, @QueryParam("before") String before, @Context HttpServerRequest http) {
        String asked = before == null || before.isBlank() ? "the newest page" : "the page before " + before.strip();
        return read(id, "audit/cases/history", asked, PAGED, http, c -> {
            Long after = CaseRecords.historyCursor(before);
            return () -> page(records.history(id, after));
        });
    }

    /** A page of a case's history as answered. */
    private static Map<String, Object> page(CaseRecords.History page) {
        var out = new LinkedHashMap<String, Object>();
        out.put("records", page.records());
        out.put("more", page.more());
        if (page.before() != null) {
            out.put("before", page.before());
        }
        return out;
    }

    @POST
    @Path("{id}/members")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addMember(@PathParam("id") long id, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/add-member";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, id);
        MemberBody body = calls.body(text, MemberBody.class, http, method, id);
        return calls.change(method, id, http, () -> Response.ok(cases.addMember(id, staff, body == null ? null : body.member(),
                calls.recorder(method, http))).build());
    }

    @DELETE
    @Path("{id}/members/{member}")
    public Response removeMember(@PathParam("id") long id, @PathParam("member") String member, @Context HttpServerRequest http) {
        String method = "audit/cases/remove-member";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, id);
        return calls.change(method, id, http, () -> Response.ok(cases.removeMember(id, staff, member, calls.recorder(method, http))).build());
    }

    @POST
    @Path("{id}/searches")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addSearch(@PathParam("id") long id, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/add-search";
        Staff staff = calls.auditor(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, id);
        SearchBody body = calls.body(text, SearchBody.class, http, method, id);
        return calls.change(method, id, http, () -> Response.ok(cases.addSearch(id, staff, body == null ? null : body.name(),
                body == null ? null : body.query(), calls.recorder(method, http))).build());
    }

    @POST
    @Path("{id}/requests")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addRequest(@PathParam("id") long id, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/add-request";
        Staff staff = calls.auditor(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, id);
        RequestBody body = calls.body(text, RequestBody.class, http, method, id);
        String rid = body == null || body.requestId() == null ? null : body.requestId().strip();
        // Whether the log holds the request (in the database, or kept by a hold once its month was archived) is read only
        // once the change is on record; if it does not, that is on record too.
        return calls.change(method, id, http, () -> Response.ok(cases.addRequest(id, staff, rid,
                r -> records.exists(r) || !held.ofRequest(r).isEmpty(), calls.recorder(method, http))).build());
    }

    @POST
    @Path("{id}/notes")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response addNote(@PathParam("id") long id, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/add-note";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(NONE, http, AuditEvent.Kind.ADMIN, method, id);
        NoteBody body = calls.body(text, NoteBody.class, http, method, id);
        return calls.change(method, id, http, () -> Response.ok(cases.addNote(id, staff, body == null ? null : body.text(),
                calls.recorder(method, http))).build());
    }

    /**
     * A read of a case, taking the query parameters {@code accepted}: refused as absent unless the caller sees it, and
     * refused as {@code reading} finds what was asked for wrong for the case (each on record as a refusal); else
     * recorded, with what was asked for in the record's detail, and only then is what it answers with read.
     */
    private Response read(long id, String method, String detail, List<String> accepted, HttpServerRequest http,
            Function<CaseView, Supplier<Object>> reading) {
        Staff staff = calls.staff(http, AuditEvent.Kind.AUDIT_READ, method, id);
        calls.takesOnly(accepted, http, AuditEvent.Kind.AUDIT_READ, method, id);
        Supplier<Object> answer;
        try {
            answer = reading.apply(cases.open(id, staff));
        } catch (CaseRefusal r) {
            return calls.refused(AuditEvent.Kind.AUDIT_READ, method, id, r, http);
        }
        calls.read(method, id, detail, http);
        Object body;
        try {
            body = answer.get();
        } catch (CaseRefusal r) {
            return calls.notAnswered(r);
        }
        return Response.ok(body).build();
    }

    /** As {@link #read}, holding a place for a long read while it reads; with none free, 429 (on record as busy). */
    private Response longRead(long id, String method, HttpServerRequest http, Function<CaseView, Supplier<Object>> reading) {
        Staff staff = calls.staff(http, AuditEvent.Kind.AUDIT_READ, method, id);
        try {
            cases.open(id, staff);
        } catch (CaseRefusal r) {
            return calls.refused(AuditEvent.Kind.AUDIT_READ, method, id, r, http);
        }
        var attempt = longReads.take(LongReads.Kind.CASE, staff.subject());
        if (attempt.place() == null) {
            // As every long read refused at a cap: allowed, not started, on record as busy with the reason.
            long after = attempt.refusal().retryAfterSeconds();
            String why = "too many at once: " + attempt.refusal().reason() + "; try again in " + after + " s";
            String requestId = access.record(AuditEvent.Kind.AUDIT_READ, new StaffAccess.Judged(method, AuditCase.uriOf(id), true, "busy",
                    "refused: " + attempt.refusal().reason()), http);
            return Response.status(429).header("Retry-After", Long.toString(after)).header("X-Request-Id", requestId)
                    .entity(Map.of("error", why, "retryAfterSeconds", after)).build();
        }
        try (var place = attempt.place()) {
            return read(id, method, null, NONE, http, reading);
        }
    }
}
