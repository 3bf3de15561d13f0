package dev.quaestor.mcp;

import java.util.List;

/**
 * The MCP revisions this server speaks, newest first: {@code 2026-07-28} (stateless, every request
 * carries its version in {@code _meta}) and the 2025 revisions (a session opened by {@code initialize}).
 */
final class ProtocolVersions {

    /** The stateless revision. */
    static final String MODERN = "2026-07-28";
    /** The revisions that open a session with {@code initialize}, newest first. */
    static final List<String> LEGACY = List.of("2025-11-25", "2025-06-18", "2025-03-26");
    /** Every revision spoken: what {@code server/discover} and an UnsupportedProtocolVersion error list. */
    static final List<String> SUPPORTED = List.of(MODERN, "2025-11-25", "2025-06-18", "2025-03-26");
    static final String LATEST_LEGACY = LEGACY.get(0);

    private ProtocolVersions() {
    }

    /** {@code initialize}: the client's version if it is one of ours that has sessions, else our latest such one. */
    static String negotiate(String requested) {
        return LEGACY.contains(requested) ? requested : LATEST_LEGACY;
    }

    static boolean isLegacy(String v) {
        return LEGACY.contains(v);
    }

    /** JSON-RPC batches: 2025-06-18 removed them, so only a 2025-03-26 session may send one. */
    static boolean allowsBatches(String v) {
        return "2025-03-26".equals(v);
    }
}
