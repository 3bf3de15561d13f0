package dev.quaestor.console;

import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.bundle.BundleSelection;
import dev.quaestor.bundle.EvidenceBundles;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRecords;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CaseView;
import dev.quaestor.cases.Cases;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The console's evidence bundles: of one request (its page's button), of the current search (the search page's), or of
 * a case (its page's: the records of its requests and of the requests its searches find), made by
 * {@link EvidenceBundles}. Each takes a place for bundles ({@link LongReads.Kind#BUNDLE}; past the cap, 429 and a page
 * saying when to try again). The view is on record ({@code console/bundle}) before anything is read, and the bundle's
 * SHA-256 under the same request id before it is sent. A bundle not made is a console page saying why, under that
 * request id, linking back to the request, search or case it was asked for.
 */
@Path("/console/bundle")
public class BundleDownloadResource {

    private final ConsoleAccess access;
    private final CaseConsoleAccess caseAccess;
    private final EvidenceBundles bundles;
    private final Cases cases;
    private final CaseRecords caseRecords;
    private final TimeZones zones;

    BundleDownloadResource(ConsoleAccess access, CaseConsoleAccess caseAccess, EvidenceBundles bundles, Cases cases,
            CaseRecords caseRecords, TimeZones zones) {
        this.access = access;
        this.caseAccess = caseAccess;
        this.bundles = bundles;
        this.cases = cases;
        this.caseRecords = caseRecords;
        this.zones = zones;
    }

    @GET
    public Response bundle(@QueryParam("requestId") String requestId, @BeanParam SearchForm form, @Context UriInfo uri) {
        String method = "console/bundle";
        // "?requestId=" asks for a request and names none: refused as such, never read as a search with no filter.
        boolean byRequest = requestId != null || uri.getQueryParameters().containsKey("requestId");
        if (byRequest && (requestId == null || requestId.isBlank())) {
            if (!access.isAuditor()) {
                access.view(ConsoleAccess.Area.AUDIT, method, "request=(empty)"); // records the refusal and throws
            }
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", "request=(empty)", 400,
                    "No bundle was made: the request id is empty. Give the id of a request (its page shows it), or make the "
                            + "bundle from a search.").backTo("/console/search");
        }
        try {
            SearchForm.onlyItsParameters(uri.getQueryParameters(), "requestId");
        } catch (IllegalArgumentException e) {
            String asked = byRequest ? "request=" + requestId : form.describe();
            if (!access.isAuditor()) {
                access.view(ConsoleAccess.Area.AUDIT, method, asked); // records the refusal and throws
            }
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", asked + " " + uri.getRequestUri().getRawQuery()
                    + " refused: " + e.getMessage(), 400, "No bundle was made: " + e.getMessage() + ".").backTo("/console/search");
        }
        String detail = byRequest ? "request=" + requestId : form.describe();
        String back = byRequest ? "/console/requests/" + URLEncoder.encode(requestId.trim(), StandardCharsets.UTF_8).replace("+", "%20")
                : "/console/search" + (form.queryString().isEmpty() ? "" : "?" + form.queryString());
        var held = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.BUNDLE, method, detail);
        try (var place = held.place()) {
            var maker = new EvidenceBundles.Maker(access.caller(), held.requestId());
            BundleSelection selection;
            try {
                selection = byRequest ? BundleSelection.ofRequests(List.of(requestId), null)
                        : BundleSelection.ofSearch(form.query(BundleSelection.MAX_SEARCH_RECORDS,
                                form.zone(zones.of(access.identity().subject()))), null);
            } catch (IllegalArgumentException e) {
                throw notMade(maker, 400, e.getMessage(), back);
            }
            return answer(make(selection, maker), maker, back);
        }
    }

    /**
     * The bundle of a case, for the auditor role (403 for anyone else, on record under the case's uri: it holds the
     * records the case's searches find) and only for those who see the case (to anyone else it does not exist: 404, on
     * record). Its searches are run, at most {@link CaseRecords#BUNDLED_SEARCHES} of them: a case with more is refused
     * (409, on record as {@code not-made}) before any is run.
     */
    @GET
    @Path("case/{id}")
    public Response ofCase(@PathParam("id") long id) {
        var staff = caseAccess.auditor(AuditEvent.Kind.AUDIT_READ, "console/bundle", AuditCase.uriOf(id));
        CaseView c;
        try {
            c = cases.open(id, staff);
        } catch (CaseRefusal r) {
            throw caseAccess.refused("console/bundle", id, r);
        }
        // Under the case's uri, as its refusals: the bundle holds the case's title and records, so it is in the case's history.
        var held = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.BUNDLE, "console/bundle", AuditCase.uriOf(id), "case=" + id);
        String caseBack = "/console/cases/" + id;
        try (var place = held.place()) {
            var maker = new EvidenceBundles.Maker(access.caller(), held.requestId());
            List<String> ids;
            try {
                ids = caseRecords.requestIds(c, BundleSelection.MAX_SEARCH_RECORDS, BundleSelection.MAX_REQUESTS);
            } catch (CaseRefusal r) {
                throw notMade(maker, r.status(), r.getMessage(), caseBack);
            } catch (RuntimeException e) {
                bundles.failed(maker, "case=" + id, e);
                access.endOnRecord(); // its not-made record says how the view ended
                throw e;
            }
            if (ids.isEmpty()) {
                throw notMade(maker, 409, "case " + id + " has no request yet, and its searches find none", caseBack);
            }
            if (ids.size() > BundleSelection.MAX_REQUESTS) {
                throw notMade(maker, 409, "case " + id + " names more than the " + BundleSelection.MAX_REQUESTS
                        + " requests a bundle holds: make bundles of its searches or requests instead", caseBack);
            }
            return answer(make(BundleSelection.ofRequests(ids, caseName(c)), maker), maker, caseBack);
        }
    }

    /** The case as the bundle names it ("case 12: title"): its number and title, on one line, at most 200 characters. */
    static String caseName(CaseView c) {
        String name = (c.id() + ": " + c.title()).replaceAll("\\p{Cntrl}", " ");
        return name.length() > 200 ? name.substring(0, 199) + "…" : name;
    }

    /** A bundle not made, on record as such: its page, under the request id of its record, linking back to {@code back}. */
    private ConsoleRefusal notMade(EvidenceBundles.Maker maker, int status, String why, String back) {
        bundles.notMade(maker, why);
        access.endOnRecord(); // its not-made record says how the view ended
        return new ConsoleRefusal(status, "No bundle was made: " + why + ".", maker.requestId()).backTo(back);
    }

    /** The bundle made, or why not; one whose making failed is on record as not made by its maker. */
    private EvidenceBundles.Made make(BundleSelection selection, EvidenceBundles.Maker maker) {
        try {
            return bundles.make(selection, maker);
        } catch (RuntimeException e) {
            access.endOnRecord(); // its not-made record says how the view ended
            throw e;
        }
    }

    private Response answer(EvidenceBundles.Made made, EvidenceBundles.Maker maker, String back) {
        if (!made.made()) {
            access.endOnRecord(); // its not-made record says how the view ended
            throw new ConsoleRefusal(made.notMade().status(), "No bundle was made: " + made.refused() + ".", maker.requestId()).backTo(back);
        }
        return Response.ok(made.zip(), "application/zip").header("X-Request-Id", maker.requestId())
                .header("Content-Disposition", "attachment; filename=\"quaestor-bundle-" + maker.requestId() + ".zip\"").build();
    }
}
