package dev.quaestor.mcp.wire;

/** JSON-RPC error codes of the error contract (README, "Errors"). */
public final class ErrorCodes {
    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    public static final int REQUEST_TIMEOUT = -32001;
    public static final int RESOURCE_NOT_FOUND = -32002;
    public static final int PERMISSION_DENIED = -32003;
    public static final int RATE_LIMITED = -32004;
    public static final int UNAVAILABLE = -32005;

    private ErrorCodes() {
    }
}
