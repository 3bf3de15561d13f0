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
 * A refused console request, as a page saying why and naming the audit record of the refusal. In a live console
 * session it is a console page (its menu, who is signed in) with a link back: to the address the refusal names (the case,
 * the request or the search it was about), else the console's start page (the console sends no {@code Referer}, so the
 * page a request came from is not known); a refusal for want of a role also offers to
 * sign out (to sign in as someone else). Outside one it stands alone. One turned away because too many long reads run
 * at once says it is busy, not refused, when to try again, and links back to try.
 */
@Provider
public class ConsoleRefusalMapper implements ExceptionMapper<ConsoleRefusal> {

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance refused(String message, String requestId, int status, long retryAfter, String retry);

        static native TemplateInstance refusedPage(Chrome chrome, String message, String requestId, int status, long retryAfter,
                String retry, String back);
    }

    @Inject
    RoutingContext rc;
    @Inject
    ConsolePage page;

    @Override
    public Response toResponse(ConsoleRefusal e) {
        String html;
        if (ConsoleSessionCheck.current(rc) == null) {
            html = Templates.refused(e.getMessage(), e.requestId(), e.status(), e.retryAfterSeconds(), e.retry()).render();
        } else {
            String title = e.status() == 429 ? "Busy" : e.status() == 404 ? "Not found" : e.status() >= 500 ? "Not answered" : "Refused";
            html = Templates.refusedPage(page.chrome(title), e.getMessage(), e.requestId(), e.status(), e.retryAfterSeconds(), e.retry(),
                    e.back() != null ? e.back() : "/console").render();
        }
        var r = Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8")).header("X-Request-Id", e.requestId())
                .entity(html);
        return (e.retryAfterSeconds() > 0 ? r.header("Retry-After", Long.toString(e.retryAfterSeconds())) : r).build();
    }
}
