package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.McpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP response for an {@link Answer}: its body as JSON, or as one SSE event when the client accepts only that,
 * or its status alone; a streamed read through {@link StreamedResponses}. Every response carries the request's id in
 * {@code X-Request-Id}, unless the answer names the record it was counted in.
 */
@ApplicationScoped
class AnswerResponses {

    private final ObjectMapper json;
    private final StreamedResponses streamed;

    AnswerResponses(ObjectMapper json, StreamedResponses streamed) {
        this.json = json;
        this.streamed = streamed;
    }

    Response render(Answer a, boolean sse, RoutingContext rc, String requestId) {
        if (a.body() instanceof Answer.Streamed s) {
            return streamed.build(s, sse, rc, requestId, a.headers());
        }
        Response.ResponseBuilder b = a.body() == null ? Response.status(a.status()) : respond(a.status(), a.body(), sse);
        if (!a.headers().containsKey(McpHeaders.REQUEST_ID)) {
            b.header(McpHeaders.REQUEST_ID, requestId); // else the answer names the record it was counted in
        }
        a.headers().forEach(b::header);
        return b.build();
    }

    private Response.ResponseBuilder respond(int status, Object body, boolean sse) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (sse) {
            // One event carrying the response, then the stream ends: the simplest valid SSE answer.
            String event = "event: message\ndata: " + new String(bytes, StandardCharsets.UTF_8) + "\n\n";
            return Response.status(status).type("text/event-stream").header("Cache-Control", "no-cache").entity(event);
        }
        return Response.status(status).type("application/json").entity(bytes);
    }
}
