package dev.quaestor.console;

import dev.quaestor.bundle.BundleSelection;
import dev.quaestor.bundle.EvidenceBundles;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * The console's evidence bundles: of one request (its page's button) or of the current search (the search page's),
 * made by {@link EvidenceBundles}. The view is on record ({@code console/bundle}) before anything is read, and the
 * bundle's SHA-256 under the same request id before it is sent.
 */
@Path("/console/bundle")
public class BundleDownloadResource {

    private final ConsoleAccess access;
    private final EvidenceBundles bundles;
    private final TimeZones zones;

    BundleDownloadResource(ConsoleAccess access, EvidenceBundles bundles, TimeZones zones) {
        this.access = access;
        this.bundles = bundles;
        this.zones = zones;
    }

    @GET
    public Response bundle(@QueryParam("requestId") String requestId, @BeanParam SearchForm form) {
        String detail = requestId != null ? "request=" + requestId : form.describe();
        String recorded = access.view(ConsoleAccess.Area.AUDIT, "console/bundle", detail);
        var maker = new EvidenceBundles.Maker(access.caller(), recorded);
        BundleSelection selection;
        try {
            selection = requestId != null ? BundleSelection.ofRequests(List.of(requestId), null)
                    : BundleSelection.ofSearch(form.query(BundleSelection.MAX_SEARCH_RECORDS,
                            form.zone(zones.of(access.identity().subject()))), null);
        } catch (IllegalArgumentException e) {
            bundles.notMade(maker, e.getMessage());
            return Response.status(400).type(MediaType.TEXT_PLAIN).entity(e.getMessage()).build();
        }
        var made = bundles.make(selection, maker);
        if (!made.made()) {
            return Response.status(409).type(MediaType.TEXT_PLAIN).header("X-Request-Id", recorded)
                    .entity("No bundle was made: " + made.refused() + ".").build();
        }
        return Response.ok(made.zip(), "application/zip").header("X-Request-Id", recorded)
                .header("Content-Disposition", "attachment; filename=\"quaestor-bundle-" + recorded + ".zip\"").build();
    }
}
