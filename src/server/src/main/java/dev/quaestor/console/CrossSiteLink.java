package dev.quaestor.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
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

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance crossSiteLink(String link);
    }

    /** The page that offers to open {@code uri} (this console's own path and query), from this site. */
    static Response page(String uri) {
        return Response.ok(Templates.crossSiteLink(uri).render(), MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .header("Cache-Control", "no-store").build();
    }
}
