package dev.quaestor.mcp.wire;

import jakarta.ws.rs.core.Response;

/**
 * A refusal answered in plain text, for a request refused before it is read as JSON-RPC (its body, its headers or
 * its session), with its request id in {@code X-Request-Id}.
 */
public final class TextResponse {

    private TextResponse() {
    }

    public static Response of(int status, String message, String requestId) {
        return Response.status(status).type("text/plain").entity(message + "\n").header(McpHeaders.REQUEST_ID, requestId)
                .build();
    }

    /** A status alone, with the request id. */
    public static Response status(int status, String requestId) {
        return Response.status(status).header(McpHeaders.REQUEST_ID, requestId).build();
    }
}
