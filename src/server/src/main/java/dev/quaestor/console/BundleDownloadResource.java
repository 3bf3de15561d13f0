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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The console's evidence bundles: of one request (its page's button), of the current search (the search page's), or of
 * a case (its page's: the records of its requests and of the requests its searches find), made by
 * {@link EvidenceBundles}. Each takes a place for bundles ({@link LongReads.Kind#BUNDLE}; past the cap, 429 and a page
 * saying when to try again). The view is on record ({@code console/bundle}) before anything is read, and the bundle's
 * SHA-256 under the same request id before it is sent.
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
    public Response bundle(@QueryParam("requestId") String requestId, @BeanParam SearchForm form) {
        String detail = requestId != null ? "request=" + requestId : form.describe();
        var held = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.BUNDLE, "console/bundle", detail);
        try (var place = held.place()) {
            var maker = new EvidenceBundles.Maker(access.caller(), held.requestId());
            BundleSelection selection;
            try {
                selection = requestId != null ? BundleSelection.ofRequests(List.of(requestId), null)
                        : BundleSelection.ofSearch(form.query(BundleSelection.MAX_SEARCH_RECORDS,
                                form.zone(zones.of(access.identity().subject()))), null);
            } catch (IllegalArgumentException e) {
                return notMade(maker, 400, e.getMessage());
            }
            return answer(bundles.make(selection, maker), maker);
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
            throw caseAccess.refused("console/bundle", AuditCase.uriOf(id), r);
        }
        // Under the case's uri, as its refusals: the bundle holds the case's title and records, so it is in the case's history.
        var held = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.BUNDLE, "console/bundle", AuditCase.uriOf(id), "case=" + id);
        try (var place = held.place()) {
            var maker = new EvidenceBundles.Maker(access.caller(), held.requestId());
            List<String> ids;
            try {
                ids = caseRecords.requestIds(c, BundleSelection.MAX_SEARCH_RECORDS, BundleSelection.MAX_REQUESTS);
            } catch (CaseRefusal r) {
                return notMade(maker, r.status(), r.getMessage());
            } catch (RuntimeException e) {
                bundles.failed(maker, "case=" + id, e);
                throw e;
            }
            if (ids.isEmpty()) {
                return notMade(maker, 409, "case " + id + " has no request yet, and its searches find none");
            }
            if (ids.size() > BundleSelection.MAX_REQUESTS) {
                return notMade(maker, 409, "case " + id + " names more than the " + BundleSelection.MAX_REQUESTS
                        + " requests a bundle holds: make bundles of its searches or requests instead");
            }
            return answer(bundles.make(BundleSelection.ofRequests(ids, caseName(c)), maker), maker);
        }
    }

    /** The case as the bundle names it ("case 12: title"): its number and title, on one line, at most 200 characters. */
    static String caseName(CaseView c) {
        String name = (c.id() + ": " + c.title()).replaceAll("\\p{Cntrl}", " ");
        return name.length() > 200 ? name.substring(0, 199) + "…" : name;
    }

    private Response notMade(EvidenceBundles.Maker maker, int status, String why) {
        bundles.notMade(maker, why);
        return Response.status(status).type(MediaType.TEXT_PLAIN).header("X-Request-Id", maker.requestId())
                .entity("No bundle was made: " + why + ".").build();
    }

    private static Response answer(EvidenceBundles.Made made, EvidenceBundles.Maker maker) {
        if (!made.made()) {
            return Response.status(409).type(MediaType.TEXT_PLAIN).header("X-Request-Id", maker.requestId())
                    .entity("No bundle was made: " + made.refused() + ".").build();
        }
        return Response.ok(made.zip(), "application/zip").header("X-Request-Id", maker.requestId())
                .header("Content-Disposition", "attachment; filename=\"quaestor-bundle-" + maker.requestId() + ".zip\"").build();
    }
}
