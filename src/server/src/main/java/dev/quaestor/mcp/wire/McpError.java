package dev.quaestor.mcp.wire;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON-RPC error to return to the client, with the HTTP status and headers that go with it.
 * Messages and data are written for the client: they never carry internal detail.
 */
public class McpError extends RuntimeException {

    private final int code;
    private final Map<String, Object> data;
    private final int httpStatus;
    private final Map<String, String> headers;

    public McpError(int code, String message, Map<String, Object> data) {
        this(code, message, data, 200, Map.of());
    }

    public McpError(int code, String message, Map<String, Object> data, int httpStatus, Map<String, String> headers) {
        super(message, null, false, false);
        this.code = code;
        this.data = data == null ? new LinkedHashMap<>() : new LinkedHashMap<>(data);
        this.httpStatus = httpStatus;
        this.headers = Map.copyOf(headers);
    }

    public int code() {
        return code;
    }

    public Map<String, Object> data() {
        return data;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
