package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.http.WriteDeadlines;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.pipeline.ReadConfig;
import dev.quaestor.pipeline.StreamedRead;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The HTTP response for a streamed {@code resources/read}: the JSON-RPC envelope around content that
 * is encoded as it is read ({@link StreamedRead#writeTo} decides the order of content, outcome audit
 * and closing bytes). As JSON, or as one SSE event when the client accepts only that. Written on the
 * request's worker thread with the HTTP layer's back-pressure; a response whose client does not take a write
 * within its write deadline ({@link WriteDeadlines}), that makes no progress for {@code quaestor.read.write-timeout},
 * or that fails part-way, is reset so the client never sees it complete.
 */
@ApplicationScoped
class StreamedResponses {

    /** Bytes a streamed response may have queued for the socket before its writer waits. */
    private static final int WRITE_QUEUE_BYTES = 512 * 1024;

    private final ObjectMapper json;
    private final WriteDeadlines deadlines;
    private final ReadConfig config;
    private final AdmissionLimit admission;

    StreamedResponses(ObjectMapper json, WriteDeadlines deadlines, ReadConfig config, AdmissionLimit admission) {
        this.json = json;
        this.deadlines = deadlines;
        this.config = config;
        this.admission = admission;
    }

    Response build(Answer.Streamed streamed, boolean sse, RoutingContext rc, String requestId, Map<String, String> headers) {
        HttpServerRequest request = rc.request();
        StreamedRead read = streamed.read();
        byte[] opening = opening(streamed.id(), read, streamed.resultFields(), sse);
        byte[] closing = (sse ? "\"}]}}\n\n" : "\"}]}}").getBytes(StandardCharsets.US_ASCII);
        StreamingOutput body = out -> {
            // Let the worker run ahead of the socket by a few writes: with the default high-water mark
            // (64 KiB) every 64 KiB write parked the worker until the event loop drained it.
            request.response().setWriteQueueMaxSize(WRITE_QUEUE_BYTES);
            try (var watch = deadlines.watch(WriteDeadlines.Kind.READ, request, config.writeTimeout())) {
                read.writeTo(watch.wrap(out), opening, closing);
            } catch (IOException | RuntimeException e) {
                // Incomplete: reset the stream (HTTP/1.1: close the connection) so no client takes it for whole.
                request.response().reset();
                // A response reset (here, or cut off at its write deadline) ends without a word to the request's end
                // handlers, which give its place in flight back: give it back here.
                admission.release(rc);
                throw e instanceof IOException io ? io : new IOException(e);
            }
        };
        var builder = Response.ok(body).type(sse ? "text/event-stream" : "application/json")
                .header(McpHeaders.REQUEST_ID, requestId);
        if (sse) {
            builder.header("Cache-Control", "no-cache");
        }
        headers.forEach(builder::header);
        return builder.build();
    }

    /**
     * {@code {"jsonrpc":"2.0","id":…,"result":{…,"contents":[{"uri":…,"mimeType":…,"blob":"} up to the value,
     * with {@code resultFields} (the generation's members ahead of {@code contents}) where the ellipsis is.
     */
    private byte[] opening(JsonNode id, StreamedRead read, String resultFields, boolean sse) {
        try {
            var s = new StringBuilder(256);
            if (sse) {
                s.append("event: message\ndata: ");
            }
            s.append("{\"jsonrpc\":\"2.0\",\"id\":").append(json.writeValueAsString(id))
                    .append(",\"result\":{").append(resultFields)
                    .append("\"contents\":[{\"uri\":").append(json.writeValueAsString(read.uri()));
            if (read.mimeType() != null) {
                s.append(",\"mimeType\":").append(json.writeValueAsString(read.mimeType()));
            }
            s.append(read.text() ? ",\"text\":\"" : ",\"blob\":\"");
            return s.toString().getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
