package dev.quaestor.mcp.transport;

import jakarta.ws.rs.core.Response;
import java.util.concurrent.CompletionStage;

/**
 * A response that may be sent only once a record has committed (a refusal counted in a summary), thrown by a method
 * that streams (SSE) and so cannot return it; {@link McpEndpoint} sends it when it completes, holding no thread.
 */
final class DeferredResponse extends RuntimeException {

    private final transient CompletionStage<Response> response;

    DeferredResponse(CompletionStage<Response> response) {
        super(null, null, false, false);
        this.response = response;
    }

    CompletionStage<Response> response() {
        return response;
    }
}
