package dev.quaestor.console;

import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.inject.Named;

/**
 * The console's CSRF token (a signed double-submit token, as OWASP describes it): a random value signed with
 * the console key, the signed-in subject and their server-side session, kept in an HttpOnly, SameSite=Strict
 * cookie and repeated in a hidden field of every form. A POST is accepted only when the field equals the cookie and
 * the signature holds for the caller and the session; a forged form on another site can read neither, and a token
 * from an earlier session is worth nothing in the next.
 */
@RequestScoped
@Named("csrf")
public class CsrfToken {

    public static final String COOKIE = "quaestor-csrf";
    public static final String FIELD = "csrf";

    @Inject
    ConsoleKeys keys;
    @Inject
    RoutingContext rc;
    @Inject
    ConsoleCookies cookies;

    private String issued;

    /** The token for the current caller's forms, issuing a cookie if the request carries no valid one. */
    public String token(String subject) {
        if (issued != null) {
            return issued;
        }
        Cookie c = rc.request().getCookie(COOKIE);
        if (c != null && valid(c.getValue(), subject)) {
            issued = c.getValue();
            return issued;
        }
        String random = ConsoleKeys.random(18);
        issued = random + "." + keys.sign(signed(random, subject));
        rc.response().addCookie(cookies.cookie(COOKIE, issued, CookieSameSite.STRICT));
        return issued;
    }

    /** Whether a form's token is the caller's: equal to the cookie, and signed for this subject. */
    public boolean accepts(String formToken, String subject) {
        Cookie c = rc.request().getCookie(COOKIE);
        return formToken != null && c != null && formToken.equals(c.getValue()) && valid(formToken, subject);
    }

    private boolean valid(String token, String subject) {
        int dot = token.indexOf('.');
        return dot > 0 && keys.verify(signed(token.substring(0, dot), subject), token.substring(dot + 1));
    }

    /** What the signature covers: the random part, the subject and the live session's id. */
    private String signed(String random, String subject) {
        ConsoleSessions.Session s = ConsoleSessionCheck.current(rc);
        return "csrf|" + random + "|" + subject + "|" + (s == null ? "" : s.id());
    }
}
