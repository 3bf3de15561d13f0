package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.pipeline.ReasonCodes;
import dev.quaestor.pipeline.Refusal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Every JSON-RPC error answer, in the shape of the request's protocol generation:
 *
 * <ul>
 *   <li>session (2025): every error's {@code data} carries {@code requestId}; an id that cannot be read is
 *       {@code null}.</li>
 *   <li>stateless (2026-07-28): an id that cannot be read is left out (the revision's request ids are strings or
 *       integers, never null). The standard codes carry exactly the {@code data} the specification gives
 *       them (a not-found is {@code {uri}}, an UnsupportedProtocolVersion {@code {supported, requested}}), so
 *       clients recognise them; this server's own codes (-32001, -32003, -32004, -32005, -32603) also carry
 *       {@code requestId}. The {@code X-Request-Id} header carries it on every answer.</li>
 * </ul>
 *
 * <p>A refusal of the request path is answered with the code its revision gives it ({@link ProtocolRevision#codes()}),
 * and its own status and headers: 429 with the rate headers (or, at a per-subject bound, Retry-After), 503 with
 * Retry-After. A policy denial is -32003 on every revision. 2026-07-28 calls -32000 to -32019 a legacy range that new
 * implementations should not use, but -32003 is this server's contract with its clients and their audits, so it
 * stays (as do -32001, -32004 and -32005). What 2026-07-28 changes is the not-found: -32602 with
 * {@code data: {uri}} instead of -32002, which it forbids.
 */
public final class WireErrors {

    /** HeaderMismatch: a standard header is missing, malformed, or differs from the body (HTTP 400). */
    public static final int HEADER_MISMATCH = -32020;
    /** MissingRequiredClientCapability (HTTP 400); this server requires none. */
    static final int MISSING_CLIENT_CAPABILITY = -32021;
    /** UnsupportedProtocolVersion (HTTP 400), with {@code data: {supported, requested}}. */
    public static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private static final Set<Integer> STANDARD = Set.of(ErrorCodes.PARSE_ERROR, ErrorCodes.INVALID_REQUEST,
            ErrorCodes.METHOD_NOT_FOUND, ErrorCodes.INVALID_PARAMS, HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY,
            UNSUPPORTED_PROTOCOL_VERSION);
    /** Seconds a client is asked to wait before retrying what could not be served now. */
    private static final String UNAVAILABLE_RETRY_SECONDS = "5";
    private static final String UNRECORDED = "Service unavailable: the audit log cannot record this request";

    private WireErrors() {
    }

    public static Answer error(Generation generation, JsonNode id, int code, String message, Map<String, Object> data,
            String requestId, int status, Map<String, String> headers) {
        Object body = generation == Generation.SESSION ? sessionBody(id, code, message, data, requestId)
                : statelessBody(id, code, message, data, requestId);
        return new Answer(body, status, headers);
    }

    public static Answer error(Generation generation, JsonNode id, int code, String message, String requestId, int status) {
        return error(generation, id, code, message, Map.of(), requestId, status, Map.of());
    }

    /** An error met while serving a request, with its own status and headers. */
    public static Answer error(Generation generation, JsonNode id, McpError e, String requestId) {
        return error(generation, id, e.code(), e.getMessage(), e.data(), requestId, e.httpStatus(), e.headers());
    }

    /**
     * A refusal of the request path. One counted in a summary still to commit is sent once that has committed, with
     * the summary's request id; if it cannot commit, the request fails closed with -32005 under its own id.
     */
    public static Answer refusal(Generation generation, JsonNode id, Refusal refusal, ReasonCodes codes, String requestId) {
        int code = codes.codeFor(refusal.reason());
        Map<String, String> headers = switch (refusal.reason()) {
            case RATE_LIMITED -> rateHeaders(refusal);
            case UNAVAILABLE -> Map.of("Retry-After", UNAVAILABLE_RETRY_SECONDS);
            default -> Map.of();
        };
        int status = switch (refusal.reason()) {
            case RATE_LIMITED -> 429;
            case UNAVAILABLE -> 503;
            default -> 200;
        };
        RecordedRefusal pending = refusal.pending();
        Answer answer = error(generation, id, code, refusal.getMessage(), refusal.details(),
                pending == null ? requestId : pending.requestId(), status, headers);
        return pending == null ? answer : afterCommit(generation, pending, answer, id, requestId);
    }

    /**
     * The rate headers of a rate-limit refusal; one at a per-subject bound of the request path rather than a policy
     * limit (a subject's share of a mount's bulkhead) has no limit to describe, only its {@code retryAfterSeconds}.
     */
    private static Map<String, String> rateHeaders(Refusal refusal) {
        Map<String, String> headers = RateHeaders.of(refusal.rate());
        if (!headers.containsKey("Retry-After") && refusal.details().get("retryAfterSeconds") instanceof Number after) {
            headers.put("Retry-After", Long.toString(after.longValue()));
        }
        return headers;
    }

    /**
     * A refusal the request path has recorded ({@code record}) before it began: answered under the record's request id
     * once that has committed (it has, unless it is a summary still to commit, which is waited for; if it cannot
     * commit, the request fails closed with -32005 under {@code requestId}, its own).
     */
    public static Answer recorded(Generation generation, JsonNode id, RecordedRefusal record, int code, String message,
            Map<String, Object> data, int status, String requestId) {
        Answer answer = error(generation, id, code, message, data, record.requestId(), status, Map.of());
        return record.merged() ? afterCommit(generation, record, answer, id, requestId) : answer;
    }

    /** {@code answer} to a refusal whose record ({@code pending}, a summary) is still to commit: sent once it has. */
    public static Answer afterCommit(Generation generation, RecordedRefusal pending, Answer answer, JsonNode id,
            String requestId) {
        return Answer.afterCommit(pending, answer, error(generation, id, ErrorCodes.UNAVAILABLE, UNRECORDED, Map.of(),
                requestId, 503, Map.of("Retry-After", UNAVAILABLE_RETRY_SECONDS)));
    }

    private static Object sessionBody(JsonNode id, int code, String message, Map<String, Object> data, String requestId) {
        var d = new LinkedHashMap<String, Object>(data == null ? Map.of() : data);
        d.put("requestId", requestId);
        return new JsonRpc.Error(id == null ? NullNode.instance : id, new JsonRpc.ErrorObject(code, message, d));
    }

    private static Object statelessBody(JsonNode id, int code, String message, Map<String, Object> data, String requestId) {
        var d = new LinkedHashMap<String, Object>(data == null ? Map.of() : data);
        if (!STANDARD.contains(code)) {
            d.put("requestId", requestId);
        }
        var error = new LinkedHashMap<String, Object>();
        error.put("code", code);
        error.put("message", message);
        if (!d.isEmpty()) {
            error.put("data", d);
        }
        var body = new LinkedHashMap<String, Object>();
        body.put("jsonrpc", "2.0");
        if (id != null && (id.isTextual() || id.isIntegralNumber())) {
            body.put("id", id);
        }
        body.put("error", error);
        return body;
    }

    /** A value the client sent, as quoted in an error message: at most 100 characters of it. */
    public static String shorten(String s) {
        return s == null || s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
