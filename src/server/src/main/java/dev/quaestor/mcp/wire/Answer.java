package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.pipeline.StreamedRead;
import dev.quaestor.pipeline.Undelivered;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The outcome of one JSON-RPC message: a body element (null for a notification or a response, which
 * are answered with 202), the HTTP status and headers that go with it. An answer that may be sent only
 * once a record has committed (a refusal counted in a summary still to commit) has {@code later}: the
 * answer to send then, which is this one, or the one that fails closed if the record could not commit. An answer
 * whose records say something was served has {@code undelivered}: what to record if it never reaches the client.
 */
public record Answer(Object body, int status, Map<String, String> headers, CompletionStage<Answer> later,
        Undelivered undelivered) {

    public Answer {
        headers = headers == null ? Map.of() : headers;
    }

    public Answer(Object body, int status, Map<String, String> headers) {
        this(body, status, headers, null, null);
    }

    public Answer(Object body, int status, Map<String, String> headers, CompletionStage<Answer> later) {
        this(body, status, headers, later, null);
    }

    /** This answer, which records {@code undelivered} (may be null) if it does not reach the client. */
    public Answer ifUndelivered(Undelivered what) {
        return new Answer(body, status, headers, later, what);
    }

    /** 202 Accepted, no body: a notification, or a client's response. */
    public static Answer accepted() {
        return new Answer(null, 202, Map.of());
    }

    /**
     * {@code answer}, to be sent once {@code record} (a summary still to commit) has committed, carrying its request
     * id in {@code X-Request-Id} as its body does; {@code unrecorded} if it cannot be committed.
     */
    public static Answer afterCommit(RecordedRefusal record, Answer answer, Answer unrecorded) {
        var headers = new LinkedHashMap<>(answer.headers());
        headers.put(McpHeaders.REQUEST_ID, record.requestId());
        var now = new Answer(answer.body(), answer.status(), headers);
        return new Answer(now.body(), now.status(), now.headers(), record.committed().handle((v, e) -> e == null ? now : unrecorded));
    }

    /** This answer once whatever it waits for has committed (at once if nothing). Never fails. */
    public CompletionStage<Answer> settled() {
        return later == null ? CompletableFuture.completedFuture(this) : later;
    }

    /**
     * The answer to a JSON-RPC batch: the list of its elements' bodies (202 if none has one), sent once every element
     * that waits for a record has settled.
     */
    public static Answer batch(List<Answer> answers) {
        Undelivered undelivered = null;
        for (Answer a : answers) {
            if (a.undelivered() != null) {
                undelivered = undelivered == null ? a.undelivered() : undelivered.and(a.undelivered());
            }
        }
        Answer now = batchOf(answers).ifUndelivered(undelivered);
        if (answers.stream().allMatch(a -> a.later() == null)) {
            return now;
        }
        var settling = answers.stream().map(a -> a.settled().toCompletableFuture()).toList();
        Undelivered served = undelivered;
        CompletionStage<Answer> later = CompletableFuture.allOf(settling.toArray(CompletableFuture[]::new))
                .thenApply(v -> batchOf(settling.stream().map(CompletableFuture::join).toList()).ifUndelivered(served));
        return new Answer(now.body(), now.status(), now.headers(), later, undelivered);
    }

    private static Answer batchOf(List<Answer> answers) {
        var bodies = new ArrayList<Object>(answers.size());
        for (Answer a : answers) {
            if (a.body() != null) {
                bodies.add(a.body());
            }
        }
        if (bodies.isEmpty()) {
            return accepted();
        }
        // The request id a batch is known by is its first element's (a summary's, if that one was counted in one).
        String first = answers.get(0).headers().get(McpHeaders.REQUEST_ID);
        return new Answer(bodies, 200, first == null ? Map.of() : Map.of(McpHeaders.REQUEST_ID, first));
    }

    /**
     * A body written as it is read (a {@code resources/read} over the buffer limit):
     * {@code resultFields} is what the result holds before {@code contents} (2026-07-28: its
     * {@code resultType}, caching hints and {@code _meta}), as JSON members each followed by a comma.
     */
    public record Streamed(JsonNode id, StreamedRead read, String resultFields) {
    }
}
