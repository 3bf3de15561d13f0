package dev.quaestor.mcp.transport;

import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.mcp.wire.TextResponse;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * A request to /mcp whose {@code Accept} allows none of what its method answers with: the session stream
 * ({@code GET /mcp}) and {@code subscriptions/listen} answer only with {@code text/event-stream}. Refused by the
 * framework's matching, before any method of {@link McpEndpoint} runs; answered here as every other refusal at the
 * door is, in plain text saying what to accept, with a request id. Not recorded: nothing of the request was read.
 * Other paths keep the framework's answer.
 */
public class NotAcceptable {

    @ServerExceptionMapper
    public Response refuse(NotAcceptableException e, HttpServerRequest request) {
        String path = request.path();
        if (!McpEndpoint.handles(path)) {
            return e.getResponse();
        }
        String what = "GET".equals(request.method().name()) ? "GET /mcp (the session's stream of events)"
                : "subscriptions/listen";
        return TextResponse.of(406, "Not Acceptable: " + what + " answers only with text/event-stream; Accept must"
                + " include it", RequestIds.next());
    }
}
