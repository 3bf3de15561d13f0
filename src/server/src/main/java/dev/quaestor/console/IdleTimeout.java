package dev.quaestor.console;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;

/**
 * Ends a console session after {@code quaestor.console.idle-timeout} (15 minutes) without a request (PCI DSS
 * 8.2.8). Each authenticated console response carries a signed cookie with the time of that request; a request
 * that presents a session but no valid activity cookie, or one older than the timeout, has its session cookies
 * cleared and is sent to the signed-out page, so that going on means signing in again. Runs before
 * authentication, so an idle session is never used.
 */
@ApplicationScoped
public class IdleTimeout {

    public static final String ACTIVITY_COOKIE = "quaestor-console-activity";
    /** The session cookie of the OIDC tenant {@code console}, and the prefix of its split forms. */
    static final String SESSION_COOKIE = "q_session_console";
    static final String PATH = "/console";
    private static final int PRIORITY = 910;

    private final ConsoleKeys keys;
    private final Duration timeout;

    IdleTimeout(ConsoleKeys keys, ConsoleConfig config) {
        this.keys = keys;
        this.timeout = config.idleTimeout();
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        String path = rc.request().path();
        if (!path.equals(PATH) && !path.startsWith(PATH + "/")) {
            rc.next();
            return;
        }
        long now = System.currentTimeMillis() / 1000;
        if (hasSession(rc) && !recent(rc.request().getCookie(ACTIVITY_COOKIE), now)) {
            signOut(rc);
            rc.response().setStatusCode(302).putHeader("Location", PATH + "/signed-out?reason=idle")
                    .putHeader("Cache-Control", "no-store").end();
            return;
        }
        // The sign-in's return (code and state from the identity provider) starts the session: its response sets the
        // session cookie and redirects, before any identity is attached to a request.
        boolean signIn = rc.request().getParam("code") != null && rc.request().getParam("state") != null;
        rc.addHeadersEndHandler(v -> {
            int status = rc.response().getStatusCode();
            if ((rc.user() != null || signIn) && status < 400 && !rc.response().headers().contains("X-Quaestor-Signed-Out")) {
                rc.response().addCookie(activity(now));
            }
        });
        rc.next();
    }

    private static boolean hasSession(RoutingContext rc) {
        for (Cookie c : rc.request().cookies()) {
            if (c.getName().startsWith(SESSION_COOKIE)) {
                return true;
            }
        }
        return false;
    }

    boolean recent(Cookie cookie, long now) {
        if (cookie == null) {
            return false;
        }
        String v = cookie.getValue();
        int dot = v.indexOf('.');
        if (dot <= 0) {
            return false;
        }
        long at;
        try {
            at = Long.parseLong(v.substring(0, dot));
        } catch (NumberFormatException e) {
            return false;
        }
        return keys.verify("activity|" + at, v.substring(dot + 1)) && now - at <= timeout.toSeconds() && at <= now + 60;
    }

    private Cookie activity(long now) {
        return Cookie.cookie(ACTIVITY_COOKIE, now + "." + keys.sign("activity|" + now)).setPath(PATH).setHttpOnly(true)
                .setSameSite(CookieSameSite.LAX).setMaxAge(timeout.toSeconds());
    }

    /** Clears the session (every cookie of the console tenant), the activity and the CSRF cookies. */
    static void signOut(RoutingContext rc) {
        for (Cookie c : rc.request().cookies()) {
            if (c.getName().startsWith(SESSION_COOKIE) || c.getName().equals(ACTIVITY_COOKIE) || c.getName().equals(CsrfToken.COOKIE)) {
                rc.response().addCookie(Cookie.cookie(c.getName(), "").setPath(PATH).setMaxAge(0).setHttpOnly(true));
            }
        }
        rc.response().putHeader("X-Quaestor-Signed-Out", "1");
    }
}
