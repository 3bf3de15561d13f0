package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
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

/** The console's entry (to the first page the caller's role opens), sign-out and the signed-out page. */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class HomeResource {

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance signedOut(boolean idle, long idleMinutes);
    }

    private final ConsoleConfig config;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final ConsoleSessions sessions;
    private final ConsoleCookies cookies;
    private final AuditLog log;

    HomeResource(ConsoleConfig config, ConsoleAccess access, ConsolePage page, ConsoleSessions sessions, ConsoleCookies cookies,
            AuditLog log) {
        this.config = config;
        this.access = access;
        this.page = page;
        this.sessions = sessions;
        this.cookies = cookies;
        this.log = log;
    }

    @GET
    public Response home() {
        // The policy page records and refuses a caller whose role opens nothing.
        return Response.seeOther(URI.create(access.isAuditor() ? "/console/search" : "/console/policy")).build();
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
     * Public: says the console is signed out, and makes it so. A session whose cookie comes with the request is
     * ended on the server too (holding its token is what entitles anyone to end it), and that is recorded.
     */
    @GET
    @Path("signed-out")
    public Response signedOut(@QueryParam("reason") String reason, @Context RoutingContext rc) {
        Cookie token = rc.request().getCookie(ConsoleCookies.SESSION);
        ConsoleSessions.Session s = token == null ? null : sessions.find(token.getValue());
        if (s != null && s.endReason() == null && sessions.end(s.id(), ConsoleSessions.End.SIGNED_OUT, Instant.now())) {
            var request = rc.request();
            log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, RequestIds.next())
                    .caller(Caller.bySubject(s.subject(), SourceAddress.of(request), request.getHeader("User-Agent")))
                    .method("console/logout").decision("ALLOW").outcome("ok").detail("session " + s.ref() + " (signed-out page)")
                    .build());
        }
        cookies.clear(rc);
        return Response.ok(Templates.signedOut("idle".equals(reason), config.idleTimeout().toMinutes()).render())
                .type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).build();
    }
}
