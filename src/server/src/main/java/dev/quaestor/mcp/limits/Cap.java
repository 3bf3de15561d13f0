package dev.quaestor.mcp.limits;

import dev.quaestor.mcp.wire.ErrorCodes;

/**
 * A bound a request was refused at before any work was done for it: what the client is told (HTTP status,
 * JSON-RPC code, message, Retry-After) and what the audit record's {@code outcome} and the metric's {@code cap}
 * tag say. A caller's own cap is 429 / -32004, as a rate limit is; a bound shared by everyone is 503 / -32005;
 * a body that does not arrive in time is 408 / -32600.
 */
public enum Cap {
    IN_FLIGHT("in-flight", 429, ErrorCodes.RATE_LIMITED, 1, "Too many requests of this caller in flight"),
    SHED("max-in-flight", 503, ErrorCodes.UNAVAILABLE, 1,
            "Service unavailable: the server is at its bound of requests in flight"),
    BODY_READERS("body-readers", 429, ErrorCodes.RATE_LIMITED, 1, "Too many request bodies of this caller being read"),
    ALL_BODY_READERS("max-body-readers", 503, ErrorCodes.UNAVAILABLE, 1,
            "Service unavailable: the server is reading as many request bodies as it may"),
    BODY_BYTES("body-bytes", 429, ErrorCodes.RATE_LIMITED, 1,
            "Too many request body bytes from this caller: send smaller requests or fewer of them"),
    BODY_TIMEOUT("body-timeout", 408, ErrorCodes.INVALID_REQUEST, 0, "Request body not received in time"),
    BODY_TOO_SLOW("body-min-rate", 408, ErrorCodes.INVALID_REQUEST, 0, "Request body arriving too slowly"),
    /** Its Retry-After is when one of the caller's sessions ends by itself ({@code SessionStore.untilOneFrees}). */
    SESSIONS("sessions", 429, ErrorCodes.RATE_LIMITED, 5,
            "Too many open MCP sessions for this caller: end one (DELETE) or let one expire"),
    STREAMS("streams", 429, ErrorCodes.RATE_LIMITED, 5, "Too many open event streams for this caller"),
    LISTENS("listens", 429, ErrorCodes.RATE_LIMITED, 5, "Too many open listen streams for this caller"),
    AUDIT_QUEUE("audit-queue-share", 503, ErrorCodes.UNAVAILABLE, 1,
            "Service unavailable: this caller's records waiting for the audit log are at their share of its queue");

    /** The metric tag and, with the prefix {@code cap:}, the audit record's outcome. */
    final String tag;
    public final int status;
    final int code;
    /** Retry-After in whole seconds; 0: none (the client must send a complete request, not wait). */
    final int retryAfterSeconds;
    final String message;

    Cap(String tag, int status, int code, int retryAfterSeconds, String message) {
        this.tag = tag;
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
        this.message = message;
    }

    String outcome() {
        return "cap:" + tag;
    }
}
