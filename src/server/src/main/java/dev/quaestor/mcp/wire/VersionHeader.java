package dev.quaestor.mcp.wire;

/**
 * A request's {@code MCP-Protocol-Version} header, read once where the request enters: its value as sent (null if
 * absent), and the revision it names if this server speaks it (surrounding whitespace aside).
 */
public record VersionHeader(String value, ProtocolRevision revision) {

    public static VersionHeader of(String value) {
        return new VersionHeader(value, value == null ? null : ProtocolRevision.named(value.strip()).orElse(null));
    }

    public boolean present() {
        return value != null;
    }

    /** Whether it names the stateless revision. */
    public boolean namesStateless() {
        return revision != null && revision.stateless();
    }

    /** The generation whose shape an answer takes before the request's own is known: the one the header names, else session. */
    public Generation generation() {
        return namesStateless() ? Generation.STATELESS : Generation.SESSION;
    }

    /** Present, and naming no 2025 revision: a session's request may carry only those. */
    public boolean refusedOnSessions() {
        return value != null && (revision == null || revision.generation() != Generation.SESSION);
    }
}
