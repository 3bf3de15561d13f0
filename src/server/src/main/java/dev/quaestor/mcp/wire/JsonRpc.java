package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * JSON-RPC 2.0: a message from the client, read once for both protocol generations ({@link #read}), and the
 * envelopes of the answers.
 */
public final class JsonRpc {

    private static final String INVALID = "Invalid JSON-RPC 2.0 message";

    private JsonRpc() {
    }

    /** What one message from the client is. */
    public sealed interface Read {
    }

    /** A request: it has an id, which its answer carries. */
    public record Request(JsonNode id, String method, JsonNode params) implements Read {
    }

    /** A notification, or a response to the server (which sends no requests): accepted, nothing to answer. */
    public record Accepted() implements Read {
    }

    /** Not a message this server reads: answered with -32600 under {@code id} (null: it has none to give). */
    public record Invalid(JsonNode id, String message) implements Read {
    }

    /**
     * What a message names as far as it can be read (a string {@code method}, a string {@code params.uri}), for the
     * record of one refused before it could be read as a request; null for what it does not name.
     */
    public record Named(String method, String uri) {

        public static final Named NOTHING = new Named(null, null);

        public static Named of(JsonNode message) {
            if (message == null || !message.isObject()) {
                return NOTHING;
            }
            JsonNode method = message.path("method");
            JsonNode uri = message.path("params").path("uri");
            return new Named(method.isTextual() ? method.asText() : null, uri.isTextual() ? uri.asText() : null);
        }
    }

    /**
     * Reads one message. The generations differ in two things only: a stateless message's id must be a string or an
     * integer for it to be a message at all (2026-07-28 has no null ids), while a session judges the id only of a
     * request it is to answer; and a session reads a method that is not a string as its text (a method it then does
     * not find), where a stateless message must name it as a string.
     */
    public static Read read(JsonNode message, Generation generation) {
        if (!message.isObject()) {
            return new Invalid(null, message.isArray() && generation == Generation.STATELESS
                    ? "2026-07-28 has no batches: send each request in a POST of its own" : INVALID);
        }
        JsonNode id = message.get("id");
        boolean idTyped = id == null || id.isTextual() || id.isIntegralNumber();
        if (!"2.0".equals(message.path("jsonrpc").asText(null)) || (generation == Generation.STATELESS && !idTyped)) {
            return new Invalid(id, INVALID);
        }
        if (!message.has("method")) {
            return new Accepted();
        }
        JsonNode m = message.get("method");
        String method = generation == Generation.SESSION ? m.asText(null) : m.isTextual() ? m.asText() : null;
        if (method == null) {
            return new Invalid(id, "method must be a string");
        }
        if (id == null) {
            return new Accepted();
        }
        if (!idTyped) {
            return new Invalid(null, "id must be a string or an integer");
        }
        return new Request(id, method, message.get("params"));
    }

    public record Result(String jsonrpc, JsonNode id, Object result) {
        public Result(JsonNode id, Object result) {
            this("2.0", id, result);
        }
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ErrorObject(int code, String message, Object data) {
    }

    record Error(String jsonrpc, JsonNode id, ErrorObject error) {
        Error(JsonNode id, ErrorObject error) {
            this("2.0", id, error);
        }
    }
}
