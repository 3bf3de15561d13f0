package dev.quaestor.mcp.stateless;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.pipeline.RequestContext;

/** What the checks of a 2026-07-28 request found: the request to serve, or the answer that ends it. */
public sealed interface Check {

    /** A request that passed every check: what to serve, and the context to serve it in. */
    record Passed(JsonNode id, String method, JsonNode params, RequestContext ctx) implements Check {
    }

    /** A refusal, or 202 for a notification or a response. */
    record Answered(Answer answer) implements Check {
    }
}
