package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.cases.CaseRecords;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CasePage;
import dev.quaestor.cases.CaseView;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.HeldRecords;
import dev.quaestor.cases.HoldView;
import dev.quaestor.cases.Holds;
import dev.quaestor.cases.Staff;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The cases pages: my cases (or every case, for the case administrator role), and one case: its requests with their
 * records, its searches with their counts, its holds and where their release stands, its notes, and its history (the
 * records of its own calls and views under its uri, newest first, a page at a time), with the forms that change it
 * ({@link CaseForms}). For the auditor and the case administrator roles, as the API; a case the caller does not see is
 * answered as absent (404). Each view is recorded under the case's uri, once the case is opened for the caller:
 * allowed, or refused as the API refuses it; an allowed view holds a place for a long read while it reads the log
 * ({@link LongReads.Kind#CASE}: past the cap, 429 and a page saying when to try again). The records (of its requests,
 * its searches' counts, what its holds kept) and its evidence bundle are shown to the auditor role only; the case
 * administrator role sees which requests and searches a case names, not what they find.
 */
@Path("/console/cases")
@Produces(MediaType.TEXT_HTML)
public class CasePages {

    @CheckedTemplate(basePath = "console/cases")
    static class Templates {
        static native TemplateInstance list(CasePage page);

        static native TemplateInstance show(Chrome chrome, CaseView c, CaseRecords.Counted counted, List<HoldView> holds,
                List<HeldRecords.Held> kept, CaseRecords.History history);

        static native TemplateInstance absent(long id);
    }

    private final ConsoleAccess access;
    private final ConsolePage page;
    private final Cases cases;
    private final Holds holds;
    private final CaseRecords records;
    private final CaseConsoleAccess caseAccess;
    private final HeldRecords kept;

    CasePages(ConsoleAccess access, ConsolePage page, Cases cases, Holds holds, CaseRecords records, CaseConsoleAccess caseAccess,
            HeldRecords kept) {
        this.kept = kept;
        this.access = access;
        this.page = page;
        this.cases = cases;
        this.holds = holds;
        this.records = records;
        this.caseAccess = caseAccess;
    }

    @GET
    public Response list(@QueryParam("before") String before) {
        Long from;
        try {
            from = Cases.cursor(before);
        } catch (CaseRefusal r) {
            if (!access.mayOpen(ConsoleAccess.Area.CASES)) {
                access.view(ConsoleAccess.Area.CASES, "console/cases", null); // refuses, on record, as for any page
            }
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, "console/cases", r.outcome(), r.getMessage(), r.status(), r.getMessage());
        }
        access.view(ConsoleAccess.Area.CASES, "console/cases", from == null ? null : "before case " + from);
        return Response.ok(page.of(Templates.list(cases.visibleTo(staff(), from)), "Cases"))
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }

    @GET
    @Path("{id}")
    public Response show(@PathParam("id") long id, @QueryParam("historyBefore") String historyBefore) {
        String method = "console/case";
        String uri = AuditCase.uriOf(id);
        Staff staff = caseAccess.viewer(method, uri);
        Long historyFrom;
        try {
            historyFrom = CaseRecords.historyCursor(historyBefore);
        } catch (CaseRefusal r) {
            // Refused before anything is read, on record under the case's uri: a mistyped cursor is not a missing case.
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, uri, r.outcome(), "case=" + id + " refused: " + r.getMessage(),
                    r.status(), r.getMessage() + ".").backTo("/console/cases/" + id);
        }
        CaseView c;
        List<HoldView> held;
        try {
            c = cases.open(id, staff);
            held = holds.ofCase(id, staff);
        } catch (CaseRefusal r) {
            // Refused as the API refuses it: on record under the case's uri, and answered as absent.
            access.refuse(AuditEvent.Kind.AUDIT_READ, method, uri, r.outcome(), r.getMessage(), r.status(), r.getMessage());
            return absent(id);
        }
        var view = access.viewHolding(ConsoleAccess.Area.CASES, LongReads.Kind.CASE, method, uri, "case=" + id);
        try (var place = view.place()) {
            CaseRecords.History history = records.history(id, historyFrom);
            // What the case reads of the audit log (its requests' and searches' records, what its holds kept) is the
            // auditor's. Rendered here, while the place is held: the template reads nothing more.
            boolean auditor = caseAccess.mayReadRecords();
            String html = Templates.show(page.chrome("Case " + id + ": " + c.title()), c,
                    auditor ? records.of(c) : CaseRecords.Counted.NONE, held, auditor ? kept.ofCase(id) : List.of(), history)
                    .render();
            return Response.ok(html).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
        }
    }

    private Response absent(long id) {
        return Response.status(404).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(page.of(Templates.absent(id), "No such case")).build();
    }

    private Staff staff() {
        return caseAccess.staff();
    }
}
