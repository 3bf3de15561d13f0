package dev.quaestor.console;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;

/** The console's entry (to the first page the caller's role opens), sign-out and the signed-out page. */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class HomeResource {

    private final ConsoleConfig config;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final Template signedOut;

    HomeResource(ConsoleConfig config, ConsoleAccess access, ConsolePage page, @Location("console/signed-out.html") Template signedOut) {
        this.config = config;
        this.access = access;
        this.page = page;
        this.signedOut = signedOut;
    }

    @GET
    public Response home() {
        // The policy page records and refuses a caller whose role opens nothing.
        return Response.seeOther(URI.create(access.isAuditor() ? "/console/search" : "/console/policy")).build();
    }

    @POST
    @Path("logout")
    public Response logout(@FormParam("csrf") String csrf, @Context RoutingContext rc) {
        page.checkCsrf(csrf, "console/logout");
        access.signedOut();
        IdleTimeout.signOut(rc);
        return Response.seeOther(URI.create("/console/signed-out")).build();
    }

    /** Public: clears any console session and says so. */
    @GET
    @Path("signed-out")
    public Response signedOut(@QueryParam("reason") String reason, @Context RoutingContext rc) {
        IdleTimeout.signOut(rc);
        return Response.ok(signedOut.data("idle", "idle".equals(reason)).data("idleMinutes", config.idleTimeout().toMinutes()).render())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }
}
