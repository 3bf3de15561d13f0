package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.audit.RecordedRefusal;
import dev.quaestor.pipeline.ReasonCodes;
import dev.quaestor.pipeline.Refusal;
import java.util.Map;

/**
 * How a refusal of the request path is answered on the wire: its JSON-RPC code, HTTP status and headers,
 * per protocol revision (the codes themselves: {@link ProtocolRevision#codes()}).
 *
 * <p>A policy denial is -32003 on every revision. 2026-07-28 calls -32000 to -32019 a legacy range that new
 * implementations should not use, but -32003 is this server's contract with its clients and their audits,
 * so it stays (as do -32001, -32004 and -32005). What 2026-07-28 changes is the not-found: -32602 with
 * {@code data: {uri}} instead of -32002, which it forbids.
 */
public final class RefusalErrors {

    /** Seconds a client is asked to wait before retrying what could not be served now. */
    private static final String UNAVAILABLE_RETRY_SECONDS = "5";
    private static final String UNRECORDED = "Service unavailable: the audit log cannot record this request";

    private RefusalErrors() {
    }

    /**
     * A refusal's answer in the 2025 shape. One counted in a summary still to commit is sent once that has committed,
     * with the summary's request id; if it cannot commit, the request fails closed with -32005 under its own id.
     */
    public static Answer legacy(JsonNode id, Refusal refusal, ReasonCodes codes, String requestId) {
        McpError e = toError(refusal, codes);
        RecordedRefusal pending = refusal.pending();
        Answer answer = WireErrors.legacy(id, e.code(), e.getMessage(), e.data(),
                pending == null ? requestId : pending.requestId(), e.httpStatus(), e.headers());
        return pending == null ? answer : Answer.afterCommit(pending, answer, WireErrors.legacy(id, ErrorCodes.UNAVAILABLE,
                UNRECORDED, Map.of(), requestId, 503, Map.of("Retry-After", UNAVAILABLE_RETRY_SECONDS)));
    }

    /** The same in the 2026-07-28 shape. */
    public static Answer modern(JsonNode id, Refusal refusal, ReasonCodes codes, String requestId) {
        McpError e = toError(refusal, codes);
        RecordedRefusal pending = refusal.pending();
        Answer answer = WireErrors.modern(id, e.code(), e.getMessage(), e.data(),
                pending == null ? requestId : pending.requestId(), e.httpStatus(), e.headers());
        return pending == null ? answer : afterCommit(pending, answer, id, requestId);
    }

    /** A 2026-07-28 answer to a refusal whose summary is still to commit (see {@link #legacy}). */
    public static Answer afterCommit(RecordedRefusal pending, Answer answer, JsonNode id, String requestId) {
        return Answer.afterCommit(pending, answer, WireErrors.modern(id, ErrorCodes.UNAVAILABLE, UNRECORDED, Map.of(),
                requestId, 503, Map.of("Retry-After", UNAVAILABLE_RETRY_SECONDS)));
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
