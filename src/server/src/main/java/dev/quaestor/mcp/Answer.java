package dev.quaestor.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.pipeline.StreamedRead;
import java.util.Map;

/**
 * The outcome of one JSON-RPC message: a body element (null for a notification or a response, which
 * are answered with 202), the HTTP status and headers that go with it.
 */
record Answer(Object body, int status, Map<String, String> headers) {

    Answer {
        headers = headers == null ? Map.of() : headers;
    }

    /** 202 Accepted, no body: a notification, or a client's response. */
    static Answer accepted() {
        return new Answer(null, 202, Map.of());
    }

    /**
     * A body written as it is read (a {@code resources/read} over the buffer limit):
     * {@code resultFields} is what the result holds before {@code contents} (2026-07-28: its
     * {@code resultType}, caching hints and {@code _meta}), as JSON members each followed by a comma.
     */
    record Streamed(JsonNode id, StreamedRead read, String resultFields) {
    }
}
