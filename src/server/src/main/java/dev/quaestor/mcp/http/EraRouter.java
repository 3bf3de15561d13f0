package dev.quaestor.mcp.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.VersionHeader;

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

    enum Era {
        /** Stateless, 2026-07-28. */
        MODERN,
        /** A 2025 session (or the initialize that opens one). */
        LEGACY,
        /** A batch with a stateless element: 2026-07-28 has no batches, and 2025 requests carry no claim. */
        MIXED_BATCH
    }

    /**
     * Where a POST goes, and for a stateless one the revision it is served under: the one its claim names, or
     * {@link ProtocolRevision#UNVERSIONED} when it claims none this server speaks statelessly. A 2025 request's
     * revision is its session's, so its route carries none.
     */
    record Route(Era era, ProtocolRevision revision) {
    }

    private EraRouter() {
    }

    static Route route(JsonNode root, VersionHeader version) {
        if (root.isArray()) {
            for (JsonNode item : root) {
                if (claimsModern(item)) {
                    return new Route(Era.MIXED_BATCH, null);
                }
            }
            return new Route(Era.LEGACY, null);
        }
        JsonNode claim = claim(root);
        if (claim == null) {
            // With the 2026-07-28 header alone: a stateless request whose envelope is missing.
            return version.namesStateless() ? new Route(Era.MODERN, ProtocolRevision.UNVERSIONED)
                    : new Route(Era.LEGACY, null);
        }
        ProtocolRevision claimed = claim.isTextual() ? ProtocolRevision.named(claim.asText()).orElse(null) : null;
        if (claimed != null && !claimed.stateless()) {
            return new Route(Era.LEGACY, null);
        }
        return new Route(Era.MODERN, claimed != null ? claimed : ProtocolRevision.UNVERSIONED);
    }

    private static boolean claimsModern(JsonNode message) {
        JsonNode claim = claim(message);
        return claim != null && !(claim.isTextual() && ProtocolRevision.session(claim.asText()).isPresent());
    }

    private static JsonNode claim(JsonNode message) {
        if (message == null || !message.isObject()) {
            return null;
        }
        JsonNode meta = message.path("params").path("_meta");
        return meta.isObject() ? meta.get(ProtocolRevision.CLAIM) : null;
    }
}
