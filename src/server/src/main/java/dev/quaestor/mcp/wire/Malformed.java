package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import java.util.Map;

/**
 * Why a POST is refused before it could be read as a request: its body is not one JSON value ({@code parse-error},
 * -32700), or not a JSON-RPC 2.0 request of its generation, or a batch of a shape its revision refuses
 * ({@code invalid-request}, -32600); or, on a 2025 session, before it could be served: an {@code MCP-Protocol-Version}
 * header the server does not speak ({@code unsupported-version}, -32600), params it cannot read
 * ({@code invalid-params}, -32602). The outcome and detail are recorded (the detail never quotes the body), the code,
 * message and {@code data} are sent with the HTTP status.
 */
public record Malformed(String outcome, int code, String message, String detail, Map<String, Object> data, int status) {

    public static final String PARSE_ERROR = "parse-error";
    public static final String INVALID_REQUEST = "invalid-request";
    public static final String INVALID_PARAMS = "invalid-params";
    public static final String UNSUPPORTED_VERSION = "unsupported-version";

    /** A body that is not exactly one JSON value in UTF-8, {@code why} a short fixed phrase. */
    public static Malformed parseError(String why) {
        return new Malformed(PARSE_ERROR, ErrorCodes.PARSE_ERROR, "Parse error", why, Map.of(), 400);
    }

    /** Not a request this server reads: {@code message} is sent and recorded. */
    public static Malformed invalidRequest(String message, int status) {
        return invalidRequest(message, Map.of(), status);
    }

    public static Malformed invalidRequest(String message, Map<String, Object> data, int status) {
        return new Malformed(INVALID_REQUEST, ErrorCodes.INVALID_REQUEST, message, message, data, status);
    }

    /** Params that cannot be read (-32602): {@code message} is sent and recorded. */
    public static Malformed invalidParams(String message, int status) {
        return new Malformed(INVALID_PARAMS, ErrorCodes.INVALID_PARAMS, message, message, Map.of(), status);
    }

    /** An {@code MCP-Protocol-Version} header naming no revision this server speaks (400, -32600). */
    public static Malformed unsupportedVersion(String message) {
        return new Malformed(UNSUPPORTED_VERSION, ErrorCodes.INVALID_REQUEST, message, message, Map.of(), 400);
    }

    /**
     * Audits and charges this refusal ({@link ResourcePipeline#rejectMalformed}), then answers it in {@code generation}'s
     * shape once its record has committed (or with the rate limit's or the audit log's own refusal).
     */
    public Answer refuse(Generation generation, ResourcePipeline pipeline, RequestContext ctx, JsonNode id, JsonRpc.Named named) {
        RecordedRefusal record;
        try {
            record = pipeline.rejectMalformed(ctx, named.method(), named.uri(), outcome, code, detail);
        } catch (Refusal r) {
            return WireErrors.refusal(generation, id, r, ctx.codes(), ctx.requestId());
        }
        return WireErrors.recorded(generation, id, record, code, message, data, status, ctx.requestId());
    }
}
