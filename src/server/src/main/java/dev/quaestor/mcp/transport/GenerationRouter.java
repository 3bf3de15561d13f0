package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.VersionHeader;

/**
 * Which protocol generation a POST speaks, from what it carries (MCP 2026-07-28, "Versioning"): a request whose
 * {@code params._meta} claims a protocol version is served statelessly under 2026-07-28 rules, whatever its
 * method (an {@code initialize} carrying the claim then gets -32601); a request with no claim but an
 * {@code MCP-Protocol-Version: 2026-07-28} header is one whose envelope is missing (-32602). Everything else
 * is a 2025 request on a session: {@code initialize}, requests carrying {@code Mcp-Session-Id}, batches (but for
 * one sent with the 2026-07-28 header, refused as that revision refuses it).
 * A claim that names a 2025 revision is treated as 2025 traffic, so that a -32022 never lists the very
 * version it refuses. A batch with a stateless element is refused ({@link #mixesGenerations}): 2026-07-28 has no
 * batches, and 2025 requests carry no claim.
 */
final class GenerationRouter {

    /**
     * Where a POST goes, and for a stateless one the revision it is served under: the one its claim names, or
     * {@link ProtocolRevision#UNVERSIONED} when it claims none this server speaks statelessly. A 2025 request's
     * revision is its session's, so its route carries none.
     */
    record Route(Generation generation, ProtocolRevision revision) {

        static final Route SESSION = new Route(Generation.SESSION, null);
    }

    private GenerationRouter() {
    }

    static Route route(JsonNode root, VersionHeader version) {
        if (root.isArray()) {
            // A batch is 2025 traffic, unless the header names 2026-07-28, which has none: refused in its shape.
            return version.namesStateless() ? new Route(Generation.STATELESS, ProtocolRevision.UNVERSIONED) : Route.SESSION;
        }
        JsonNode claim = claim(root);
        if (claim == null) {
            // With the 2026-07-28 header alone: a stateless request whose envelope is missing.
            return version.namesStateless() ? new Route(Generation.STATELESS, ProtocolRevision.UNVERSIONED) : Route.SESSION;
        }
        ProtocolRevision claimed = claim.isTextual() ? ProtocolRevision.named(claim.asText()).orElse(null) : null;
        if (claimed != null && !claimed.stateless()) {
            return Route.SESSION;
        }
        return new Route(Generation.STATELESS, claimed != null ? claimed : ProtocolRevision.UNVERSIONED);
    }

    /** Whether this is a batch with a 2026-07-28 request in it. */
    static boolean mixesGenerations(JsonNode root) {
        if (root.isArray()) {
            for (JsonNode item : root) {
                if (claimsStateless(item)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean claimsStateless(JsonNode message) {
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
