package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRecords;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.HeldRecords;
import dev.quaestor.cases.Holds;
import dev.quaestor.cases.NewCase;
import dev.quaestor.cases.NewHold;
import dev.quaestor.cases.SearchFilters;
import dev.quaestor.cases.Staff;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * The console's forms that change a case, each the API's change by other means: open a case from a search, add a
 * request (one the log holds, or one whose month is archived and a hold kept), a search or a note, put a hold, ask for its release, release it (a second person: four eyes). Each form
 * carries the CSRF token; the caller needs the role the API needs (the auditor role for a search or a request); each change is on record ({@code ADMIN}, under the
 * case's or the hold's uri, the same methods as the API's) before it is stored, and each refusal is on record and
 * shown as a page saying why. After a change the case's page is shown again.
 */
@Path("/console/cases")
public class CaseForms {

    private final ConsolePage page;
    private final CaseConsoleAccess access;
    private final Cases cases;
    private final Holds holds;
    private final CaseRecords records;
    private final TimeZones zones;
    private final HeldRecords held;

    CaseForms(ConsolePage page, CaseConsoleAccess access, Cases cases, Holds holds, CaseRecords records,
            TimeZones zones, HeldRecords held) {
        this.held = held;
        this.page = page;
        this.access = access;
        this.cases = cases;
        this.holds = holds;
        this.records = records;
        this.zones = zones;
    }

    /** Opens a case (its opener a member, with the members named, comma-separated) with the search it was opened from. */
    @POST
    public Response open(@FormParam("csrf") String csrf, @FormParam("title") String title, @FormParam("description") String description,
            @FormParam("members") String members, @FormParam("searchName") String searchName, @BeanParam SearchForm search) {
        String method = "audit/cases/create";
        page.checkCsrf(csrf, method);
        // A case opened from a search reads the audit log: the auditor's, asked before anything is stored.
        Staff staff = search.isEmpty() ? access.admitted(method, null) : access.auditor(AuditEvent.Kind.ADMIN, method, null);
        // The search is checked before the case is opened: a search refused opens no case without it.
        Cases.CheckedSearch checked = search.isEmpty() ? null : change(method, null, () -> Cases.checkSearch(
                searchName == null || searchName.isBlank() ? "the search it was opened from" : searchName,
                SearchFilters.of(search.query(1, search.zone(zones.of(staff.subject())))).queryString()));
        var opened = change(method, null, () -> cases.create(staff, new NewCase(title, description, split(members)),
                access.recorder(method)));
        if (checked != null) {
            change("audit/cases/add-search", opened.id(), () -> cases.addSearch(opened.id(), staff, checked.name(), checked.query(),
                    access.recorder("audit/cases/add-search")));
        }
        return backTo(opened.id());
    }

    @POST
    @Path("{id}/requests")
    public Response addRequest(@PathParam("id") long id, @FormParam("csrf") String csrf, @FormParam("requestId") String requestId) {
        String method = "audit/cases/add-request";
        page.checkCsrf(csrf, method);
        Staff staff = access.auditor(AuditEvent.Kind.ADMIN, method, AuditCase.uriOf(id));
        String rid = requestId == null ? null : requestId.strip();
        // Whether the log holds the request is a read of the audit trail: looked at once the change is on record.
        change(method, id, () -> cases.addRequest(id, staff, rid, r -> records.exists(r) || !held.ofRequest(r).isEmpty(),
                access.recorder(method)));
        return backTo(id);
    }

    /** The request page's form: the case is chosen from the caller's cases. */
    @POST
    @Path("add-request")
    public Response addRequestTo(@FormParam("caseId") long id, @FormParam("csrf") String csrf, @FormParam("requestId") String requestId) {
        return addRequest(id, csrf, requestId);
    }

    @POST
    @Path("{id}/notes")
    public Response addNote(@PathParam("id") long id, @FormParam("csrf") String csrf, @FormParam("text") String text) {
        String method = "audit/cases/add-note";
        page.checkCsrf(csrf, method);
        Staff staff = access.admitted(method, AuditCase.uriOf(id));
        change(method, id, () -> cases.addNote(id, staff, text, access.recorder(method)));
        return backTo(id);
    }

    @POST
    @Path("{id}/holds")
    public Response putHold(@PathParam("id") long id, @FormParam("csrf") String csrf, @FormParam("scope") String scope,
            @FormParam("target") String target, @FormParam("from") String from, @FormParam("to") String to,
            @FormParam("reason") String reason) {
        String method = "audit/cases/hold/put";
        page.checkCsrf(csrf, method);
        Staff staff = access.admitted(method, AuditCase.uriOf(id));
        change(method, id, () -> holds.put(id, staff, new NewHold(scope, target, from, to, reason), access.recorder(method)));
        return backTo(id);
    }

    @POST
    @Path("{id}/holds/{hold}/release-request")
    public Response askRelease(@PathParam("id") long id, @PathParam("hold") long hold, @FormParam("csrf") String csrf,
            @FormParam("reason") String reason) {
        String method = "audit/cases/hold/ask-release";
        page.checkCsrf(csrf, method);
        Staff staff = access.admitted(method, AuditCase.uriOf(id));
        change(method, id, () -> holds.askRelease(id, hold, staff, reason, access.recorder(method)));
        return backTo(id);
    }

    @POST
    @Path("{id}/holds/{hold}/release")
    public Response release(@PathParam("id") long id, @PathParam("hold") long hold, @FormParam("csrf") String csrf) {
        String method = "audit/cases/hold/release";
        page.checkCsrf(csrf, method);
        Staff staff = access.admitted(method, AuditCase.uriOf(id));
        change(method, id, () -> holds.release(id, hold, staff, access.recorder(method)));
        return backTo(id);
    }

    /** Makes a change; a refusal (of the change, or of what the form asked for) is recorded and shown. */
    private <T> T change(String method, Long caseId, Supplier<T> change) {
        try {
            return change.get();
        } catch (CaseRefusal r) {
            throw access.refused(method, caseId, r);
        } catch (IllegalArgumentException e) {
            throw access.refused(method, caseId, CaseRefusal.invalid(e.getMessage()));
        }
    }

    private static List<String> split(String members) {
        return members == null ? List.of() : Arrays.stream(members.split(",")).map(String::strip).filter(m -> !m.isEmpty()).toList();
    }

    private static Response backTo(long id) {
        return Response.seeOther(URI.create("/console/cases/" + id)).build();
    }
}
