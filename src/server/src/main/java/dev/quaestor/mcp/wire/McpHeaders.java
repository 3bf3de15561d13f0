package dev.quaestor.mcp.wire;

/** The HTTP headers of the MCP endpoint that both generations share. */
public final class McpHeaders {

    /** The 2025 session a request belongs to. */
    public static final String SESSION = "Mcp-Session-Id";
    /** The protocol revision a request speaks ({@link VersionHeader}). */
    public static final String PROTOCOL_VERSION = "MCP-Protocol-Version";
    /** The request id of every answer: the one its records carry. */
    public static final String REQUEST_ID = "X-Request-Id";

    private McpHeaders() {
    }
}
