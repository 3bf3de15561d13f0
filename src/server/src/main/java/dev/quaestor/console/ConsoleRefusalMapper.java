package dev.quaestor.console;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * A refused console request, as a page saying why and naming the audit record of the refusal; one turned away because
 * too many long reads run at once says it is busy, not refused, when to try again, and links back to try.
 */
@Provider
public class ConsoleRefusalMapper implements ExceptionMapper<ConsoleRefusal> {

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance refused(String message, String requestId, int status, long retryAfter, String retry);
    }


    @Override
    public Response toResponse(ConsoleRefusal e) {
        var r = Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(Templates.refused(e.getMessage(), e.requestId(), e.status(), e.retryAfterSeconds(), e.retry()).render());
        return (e.retryAfterSeconds() > 0 ? r.header("Retry-After", Long.toString(e.retryAfterSeconds())) : r).build();
    }
}
