package dev.quaestor.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.vertx.core.http.Cookie;
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
import java.time.Instant;

/** The console's entry (to the first page the caller's role opens), sign-out (a POST with the CSRF token) and the signed-out page. */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class HomeResource {

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance signedOut(boolean idle, long idleMinutes, boolean live);
    }

    private final ConsoleConfig config;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final ConsoleSessions sessions;
    private final ConsoleCookies cookies;

    HomeResource(ConsoleConfig config, ConsoleAccess access, ConsolePage page, ConsoleSessions sessions, ConsoleCookies cookies) {
        this.config = config;
        this.access = access;
        this.page = page;
        this.sessions = sessions;
        this.cookies = cookies;
    }

    @GET
    public Response home() {
        // The first page the caller's role opens; the policy page records and refuses a caller whose role opens nothing.
        String first = access.isAuditor() ? "/console/search" : access.mayOpen(ConsoleAccess.Area.POLICY) ? "/console/policy"
                : access.mayOpen(ConsoleAccess.Area.CASES) ? "/console/cases" : "/console/policy";
        return Response.seeOther(URI.create(first)).build();
    }

    /** Ends the session on the server (every replica refuses its cookies from now on), records it, clears the cookies. */
    @POST
    @Path("logout")
    public Response logout(@FormParam("csrf") String csrf, @Context RoutingContext rc) {
        page.checkCsrf(csrf, "console/logout");
        ConsoleSessions.Session s = ConsoleSessionCheck.current(rc);
        if (s != null) {
            sessions.end(s.id(), ConsoleSessions.End.SIGNED_OUT, Instant.now());
        }
        access.signedOut(s == null ? null : s.ref());
        cookies.clear(rc);
        return Response.seeOther(URI.create(ConsoleSessionCheck.SIGNED_OUT)).build();
    }

    /**
     * Public, and changes nothing: says the console is signed out, or, when the request's session cookie names a live
     * session, that it is not (signing out takes the console's sign-out form, a POST with its CSRF token, so that no
     * other site can sign anyone out with a link).
     */
    @GET
    @Path("signed-out")
    public Response signedOut(@QueryParam("reason") String reason, @Context RoutingContext rc) {
        Cookie token = rc.request().getCookie(ConsoleCookies.SESSION);
        ConsoleSessions.Session s = token == null ? null : sessions.find(token.getValue());
        boolean live = s != null && s.endReason() == null && s.over(Instant.now(), sessions.idleTimeout()) == null;
        return Response.ok(Templates.signedOut("idle".equals(reason), config.idleTimeout().toMinutes(), live).render())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).header("Cache-Control", "no-store").build();
    }
}
