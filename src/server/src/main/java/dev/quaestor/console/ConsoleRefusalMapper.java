package dev.quaestor.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A refused console request, as a page saying why and naming the audit record of the refusal, with the console's
 * sign-out form (to sign in as someone else); one turned away because
 * too many long reads run at once says it is busy, not refused, when to try again, and links back to try.
 */
@Provider
public class ConsoleRefusalMapper implements ExceptionMapper<ConsoleRefusal> {

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance refused(String message, String requestId, int status, long retryAfter, String retry,
                String csrf);
    }

    @Inject
    ConsoleAccess access;
    @Inject
    CsrfToken csrf;
    @Inject
    RoutingContext rc;

    @Override
    public Response toResponse(ConsoleRefusal e) {
        var r = Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(Templates.refused(e.getMessage(), e.requestId(), e.status(), e.retryAfterSeconds(), e.retry(), signOutToken())
                        .render());
        return (e.retryAfterSeconds() > 0 ? r.header("Retry-After", Long.toString(e.retryAfterSeconds())) : r).build();
    }

    /** The CSRF token for the page's sign-out form, or null outside a live console session (no form then). */
    private String signOutToken() {
        return ConsoleSessionCheck.current(rc) == null ? null : csrf.token(access.identity().subject());
    }
}
