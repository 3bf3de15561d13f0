package dev.quaestor.mcp;

import dev.quaestor.mcp.schema.ErrorCodes;
import dev.quaestor.mcp.schema.McpError;
import dev.quaestor.pipeline.ReasonCodes;
import dev.quaestor.pipeline.Refusal;
import java.util.Map;

/** How a refusal of the request path is answered on the wire: its JSON-RPC code, HTTP status and headers. */
final class RefusalErrors {

    /** The codes of the error contract for the 2025 revisions. */
    static final ReasonCodes CODES_2025 = reason -> switch (reason) {
        case DENIED -> ErrorCodes.PERMISSION_DENIED;
        case INVALID_URI, INVALID_ARGUMENT -> ErrorCodes.INVALID_PARAMS;
        case NOT_FOUND -> ErrorCodes.RESOURCE_NOT_FOUND;
        case TOO_MANY_SUBSCRIPTIONS -> ErrorCodes.INVALID_REQUEST;
        case RATE_LIMITED -> ErrorCodes.RATE_LIMITED;
        case TIMED_OUT -> ErrorCodes.REQUEST_TIMEOUT;
        case UNAVAILABLE -> ErrorCodes.UNAVAILABLE;
        case TOO_LARGE, INTERNAL -> ErrorCodes.INTERNAL_ERROR;
    };

    /** Seconds a client is asked to wait before retrying what could not be served now. */
    private static final String UNAVAILABLE_RETRY_SECONDS = "5";

    private RefusalErrors() {
    }

    static McpError toError(Refusal refusal, ReasonCodes codes) {
        int code = codes.codeFor(refusal.reason());
        return switch (refusal.reason()) {
            case RATE_LIMITED -> new McpError(code, refusal.getMessage(), refusal.details(), 429, RateHeaders.of(refusal.rate()));
            case UNAVAILABLE -> new McpError(code, refusal.getMessage(), refusal.details(), 503,
                    Map.of("Retry-After", UNAVAILABLE_RETRY_SECONDS));
            default -> new McpError(code, refusal.getMessage(), refusal.details());
        };
    }
}
