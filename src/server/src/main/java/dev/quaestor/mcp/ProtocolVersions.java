package dev.quaestor.mcp;

import java.util.List;

/** The MCP revisions this server speaks, newest first. */
final class ProtocolVersions {

    static final List<String> SUPPORTED = List.of("2025-11-25", "2025-06-18", "2025-03-26");
    static final String LATEST = SUPPORTED.get(0);

    private ProtocolVersions() {
    }

    /** The client's version if we speak it, else our latest (the client then decides whether to go on). */
    static String negotiate(String requested) {
        return SUPPORTED.contains(requested) ? requested : LATEST;
    }

    static boolean isSupported(String v) {
        return SUPPORTED.contains(v);
    }
}
