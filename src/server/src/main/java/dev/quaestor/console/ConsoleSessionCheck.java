package dev.quaestor.console;

import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.Cookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Instant;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Every console request of a signed-in person must belong to a live server-side session of that same person
 * ({@link ConsoleSessions}): the session cookie names one, it has not been signed out of, it has been used within
 * the idle timeout and it has not outlived {@code quaestor.console.max-session}. Otherwise the request is refused
 * before any page runs: recorded ({@code AUTHENTICATION}, {@code console/session}, {@code DENY}, with why and which
 * session), the console's cookies cleared, and the browser sent to the signed-out page. So a copy of someone's
 * cookies stops working the moment they sign out, on every replica, and an idle session cannot be revived.
 *
 * <p>Runs after authentication (the identity provider's session cookie is verified first) and on the request's
 * worker thread, since it reads the session's row.
 */
public class ConsoleSessionCheck {

    private static final Logger LOG = Logger.getLogger(ConsoleSessionCheck.class);
    /** Where the live session of a checked request is kept for the rest of the request (CSRF tokens, sign-out). */
    static final String ATTRIBUTE = "quaestor.console.session";
    static final String SIGNED_OUT = ConsoleCookies.PATH + "/signed-out";

    @Inject
    ConsoleSessions sessions;
    @Inject
    ConsoleCookies cookies;
    @Inject
    ConsoleAccess access;
    @Inject
    SecurityIdentity security;
    @Inject
    RoutingContext rc;

    /** The live console session of this request, or null outside the console. */
    static ConsoleSessions.Session current(RoutingContext rc) {
        return rc.get(ATTRIBUTE);
    }

    /** Null to let the request through, or the answer that refuses it. */
    @ServerRequestFilter
    public Response check(ContainerRequestContext request) {
        String path = rc.request().path();
        if (!ConsoleCookies.covers(path) || path.equals(SIGNED_OUT) || security.isAnonymous()) {
            return null;
        }
        Instant now = Instant.now();
        try {
            Cookie cookie = rc.request().getCookie(ConsoleCookies.SESSION);
            ConsoleSessions.Session s = cookie == null ? null : sessions.find(cookie.getValue());
            if (s == null) {
                return refuse("session-unknown", "no console session stands behind this sign-in's cookies", "ended");
            }
            if (!s.subject().equals(access.identity().subject())) {
                return refuse("session-mismatch", "session " + s.ref() + " belongs to another person", "ended");
            }
            String over = s.over(now, sessions.idleTimeout());
            if (over != null) {
                if (s.endReason() == null) {
                    sessions.end(s.id(), over.equals(ConsoleSessions.End.IDLE.reason) ? ConsoleSessions.End.IDLE
                            : ConsoleSessions.End.EXPIRED, now);
                }
                String detail = "session " + s.ref() + " " + over + (s.endedAt() == null ? "" : " at " + s.endedAt());
                return refuse(over, detail, over.equals(ConsoleSessions.End.IDLE.reason) && s.endReason() == null ? "idle" : "ended");
            }
            if (CrossSiteLink.holdsBack(rc.request(), s.startedAt(), now)) {
                return CrossSiteLink.page(rc.request().uri());
            }
            sessions.touch(s, now);
            rc.put(ATTRIBUTE, s);
            return null;
        } catch (RuntimeException e) {
            // The session cannot be checked (the database): refused, as anything that cannot be verified is.
            LOG.errorf("console session check failed: %s", e.toString());
            return Response.status(503).type(MediaType.TEXT_PLAIN_TYPE).header("Cache-Control", "no-store")
                    .header("Retry-After", "5").entity("The console cannot check your session just now; try again shortly.\n")
                    .build();
        }
    }

    private Response refuse(String outcome, String detail, String reason) {
        access.sessionRefused(outcome, detail);
        cookies.clear(rc);
        return Response.seeOther(URI.create(SIGNED_OUT + "?reason=" + reason)).header("Cache-Control", "no-store").build();
    }
}
