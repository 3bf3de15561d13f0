package dev.quaestor.console;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The console's own cookies, all alike: scoped to {@code /console}, {@code HttpOnly}, with a {@code SameSite}
 * attribute, and {@code Secure} whenever the console's session cookie is (the prod profile sets
 * {@code quarkus.oidc.console.authentication.cookie-force-secure}), so that no console cookie ever travels in clear.
 * Cookies that clear a value carry the same attributes (a browser keeps a {@code Secure} cookie against a plain one).
 */
@ApplicationScoped
public class ConsoleCookies {

    public static final String PATH = "/console";
    /** The server-side console session's token ({@link ConsoleSessions}). */
    public static final String SESSION = "quaestor-console-session";
    /** The session cookie of the OIDC tenant {@code console} (the ID token, encrypted), and the prefix of its split forms. */
    static final String OIDC_SESSION = "q_session_console";

    private final boolean secure;

    ConsoleCookies(@ConfigProperty(name = "quarkus.oidc.console.authentication.cookie-force-secure", defaultValue = "false")
            boolean secure) {
        this.secure = secure;
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
