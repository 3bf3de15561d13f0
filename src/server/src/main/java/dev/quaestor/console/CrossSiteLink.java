package dev.quaestor.console;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.time.Instant;

/**
 * A console page opened by a link on another site is not shown (nor recorded as read) until the person chooses to
 * open it: every console page view is on record as its viewer's read, so a link from an e-mail or a hostile page
 * must not be able to make a signed-in officer "read" whatever it names. The browser says where a navigation came
 * from ({@code Sec-Fetch-Site}); only {@code cross-site} is held back, and not on a session's first minute, when the
 * sign-in itself has just come back from the identity provider (its redirects carry {@code cross-site} when the
 * provider is on another site). Forms need nothing here: every POST carries its CSRF token.
 */
final class CrossSiteLink {

    /** How long after a sign-in a cross-site navigation is taken as the sign-in's own return. */
    static final Duration SIGN_IN_RETURN = Duration.ofMinutes(1);

    private CrossSiteLink() {
    }

    /** Whether {@code request} is a navigation from another site to a session past its sign-in's return. */
    static boolean holdsBack(HttpServerRequest request, Instant sessionStarted, Instant now) {
        return (request.method() == HttpMethod.GET || request.method() == HttpMethod.HEAD)
                && "cross-site".equalsIgnoreCase(request.getHeader("Sec-Fetch-Site"))
                && now.isAfter(sessionStarted.plus(SIGN_IN_RETURN));
    }

    /** The page that offers to open {@code uri} (this console's own path and query), from this site. */
    static Response page(String uri) {
        String link = escape(uri);
        String html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Open this console page?</title></head>"
                + "<body><main><h1>Open this console page?</h1>"
                + "<p>A link on another site led here. Nothing was shown and nothing was recorded as read. Opening the page"
                + " records it as read by you.</p>"
                + "<p><a href=\"" + link + "\">Open " + link + "</a></p>"
                + "<p><a href=\"/console\">Go to the console's home instead</a></p></main></body></html>\n";
        return Response.ok(html, MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).header("Cache-Control", "no-store").build();
    }

    private static String escape(String s) {
        var out = new StringBuilder(s.length() + 16);
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }
}
