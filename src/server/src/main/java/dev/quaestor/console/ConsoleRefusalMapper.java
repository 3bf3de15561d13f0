package dev.quaestor.console;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/** A refused console request, as a page saying why and naming the audit record of the refusal. */
@Provider
public class ConsoleRefusalMapper implements ExceptionMapper<ConsoleRefusal> {

    @Inject
    @Location("console/refused.html")
    Template refused;

    @Override
    public Response toResponse(ConsoleRefusal e) {
        var r = Response.status(e.status()).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(refused.data("message", e.getMessage()).data("requestId", e.requestId()).data("status", e.status()).render());
        return (e.retryAfterSeconds() > 0 ? r.header("Retry-After", Long.toString(e.retryAfterSeconds())) : r).build();
    }
}
