package dev.quaestor.mcp.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * JSON-RPC error answers, as each era writes them.
 *
 * <ul>
 *   <li>2025: every error's {@code data} carries {@code requestId}; an id that cannot be read is {@code null}.</li>
 *   <li>2026-07-28: an id that cannot be read is left out (the revision's request ids are strings or
 *       integers, never null). The standard codes carry exactly the {@code data} the specification gives
 *       them (a not-found is {@code {uri}}, an UnsupportedProtocolVersion {@code {supported, requested}}), so
 *       clients recognise them; this server's own codes (-32001, -32003, -32004, -32005, -32603) also carry
 *       {@code requestId}. The {@code X-Request-Id} header carries it on every answer.</li>
 * </ul>
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

    private WireErrors() {
    }

    public static Answer legacy(JsonNode id, int code, String message, Map<String, Object> data, String requestId,
            int status, Map<String, String> headers) {
        var d = new LinkedHashMap<String, Object>(data == null ? Map.of() : data);
        d.put("requestId", requestId);
        var body = new JsonRpc.Error(id == null ? NullNode.instance : id, new JsonRpc.ErrorObject(code, message, d));
        return new Answer(body, status, headers);
    }

    public static Answer legacy(JsonNode id, int code, String message, String requestId, int status) {
        return legacy(id, code, message, Map.of(), requestId, status, Map.of());
    }

    public static Answer modern(JsonNode id, int code, String message, Map<String, Object> data, String requestId,
            int status, Map<String, String> headers) {
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
        return new Answer(body, status, headers);
    }

    public static Answer modern(JsonNode id, int code, String message, String requestId, int status) {
        return modern(id, code, message, Map.of(), requestId, status, Map.of());
    }

    /** A value the client sent, as quoted in an error message: at most 100 characters of it. */
    public static String shorten(String s) {
        return s == null || s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }
}
