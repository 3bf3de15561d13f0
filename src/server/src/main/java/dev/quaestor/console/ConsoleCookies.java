package dev.quaestor.console;

import io.vertx.core.http.Cookie;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.impl.ServerCookie;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The console's cookies, all alike: scoped to {@code /console}, {@code HttpOnly}, with a {@code SameSite}
 * attribute, and {@code Secure} whenever the console's session cookie is (the prod profile sets
 * {@code quarkus.oidc.console.authentication.cookie-force-secure}), so that no console cookie ever travels in clear.
 * Cookies that clear a value carry the same attributes (a browser keeps a {@code Secure} cookie against a plain one).
 *
 * <p>That holds for the cookies Quarkus's OIDC code flow sets too: a filter on every console response gives each
 * cookie set there ({@code q_auth_console…}, {@code q_session_console…}, and the ones that clear them, which Quarkus
 * writes without attributes) the attributes it lacks, just before the headers are written.
 */
@ApplicationScoped
public class ConsoleCookies {

    public static final String PATH = "/console";
    /** The server-side console session's token ({@link ConsoleSessions}). */
    public static final String SESSION = "quaestor-console-session";
    /** The session cookie of the OIDC tenant {@code console} (the ID token, encrypted), and the prefix of its split forms. */
    static final String OIDC_SESSION = "q_session_console";

    /** Ahead of authentication (200), so that the OIDC code flow's own responses pass through it too. */
    private static final int PRIORITY = 905;

    private final boolean secure;

    /** Whether {@code path} is the console's: {@code /console} or under it (not {@code /consolefoo}). */
    static boolean covers(String path) {
        return path != null && (path.equals(PATH) || path.startsWith(PATH + "/"));
    }

    ConsoleCookies(@ConfigProperty(name = "quarkus.oidc.console.authentication.cookie-force-secure", defaultValue = "false")
            boolean secure) {
        this.secure = secure;
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            String path = rc.request().path();
            if (covers(path)) {
                rc.addHeadersEndHandler(v -> harden(rc.request().cookies()));
            }
            rc.next();
        }, PRIORITY);
    }

    /** Gives each cookie this response sets the attributes every console cookie has (it runs before they are encoded). */
    void harden(Iterable<Cookie> jar) {
        for (Cookie c : jar) {
            if (c instanceof ServerCookie set && set.isChanged()) {
                c.setHttpOnly(true);
                if (secure) {
                    c.setSecure(true);
                }
                if (c.getSameSite() == null) {
                    c.setSameSite(CookieSameSite.LAX);
                }
            }
        }
    }

    /**
     * A console cookie for the browser's session (no Max-Age). {@code SameSite=Lax} lets it arrive with the
     * identity provider's redirect back to the console; {@code Strict} keeps it off every cross-site request.
     */
    Cookie cookie(String name, String value, CookieSameSite sameSite) {
        return Cookie.cookie(name, value).setPath(PATH).setHttpOnly(true).setSecure(secure).setSameSite(sameSite);
    }

    /** Clears the console's cookies the request carries: the OIDC session (and its parts), the console session, CSRF. */
    void clear(RoutingContext rc) {
        for (Cookie c : rc.request().cookies()) {
            String name = c.getName();
            if (name.startsWith(OIDC_SESSION) || name.equals(SESSION) || name.equals(CsrfToken.COOKIE)) {
                rc.response().addCookie(Cookie.cookie(name, "").setPath(PATH).setMaxAge(0).setHttpOnly(true).setSecure(secure)
                        .setSameSite(CookieSameSite.LAX));
            }
        }
    }
}
