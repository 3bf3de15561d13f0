package dev.quaestor.mcp;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Which protocol era a POST speaks, from what it carries (MCP 2026-07-28, "Versioning"): a request whose
 * {@code params._meta} claims a protocol version is served statelessly under 2026-07-28 rules, whatever its
 * method (an {@code initialize} carrying the claim then gets -32601); a request with no claim but an
 * {@code MCP-Protocol-Version: 2026-07-28} header is one whose envelope is missing (-32602). Everything else
 * is a 2025 request on a session: {@code initialize}, requests carrying {@code Mcp-Session-Id}, batches.
 * A claim that names a 2025 revision is treated as 2025 traffic, so that a -32022 never lists the very
 * version it refuses.
 */
final class EraRouter {

    static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

    enum Era {
        /** Stateless, 2026-07-28. */
        MODERN,
        /** A 2025 session (or the initialize that opens one). */
        LEGACY,
        /** A batch with a stateless element: 2026-07-28 has no batches, and 2025 requests carry no claim. */
        MIXED_BATCH
    }

    private EraRouter() {
    }

    static Era classify(JsonNode root, String versionHeader) {
        if (root.isArray()) {
            for (JsonNode item : root) {
                if (claimsModern(item)) {
                    return Era.MIXED_BATCH;
                }
            }
            return Era.LEGACY;
        }
        JsonNode claim = claim(root);
        if (claim != null) {
            return claim.isTextual() && ProtocolVersions.isLegacy(claim.asText()) ? Era.LEGACY : Era.MODERN;
        }
        return versionHeader != null && ProtocolVersions.MODERN.equals(versionHeader.strip()) ? Era.MODERN : Era.LEGACY;
    }

    private static boolean claimsModern(JsonNode message) {
        JsonNode claim = claim(message);
        return claim != null && !(claim.isTextual() && ProtocolVersions.isLegacy(claim.asText()));
    }

    private static JsonNode claim(JsonNode message) {
        if (message == null || !message.isObject()) {
            return null;
        }
        JsonNode meta = message.path("params").path("_meta");
        return meta.isObject() ? meta.get(META_PROTOCOL_VERSION) : null;
    }
}
