package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.VersionHeader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which protocol generation a POST is routed to. */
class GenerationRouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void postsAreRoutedByWhatTheyCarry() throws Exception {
        String meta = "{\"io.modelcontextprotocol/protocolVersion\":\"%s\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
        var stateless = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"_meta\":"
                + meta.formatted("2026-07-28") + "}}");
        assertEquals(Generation.STATELESS, GenerationRouter.route(stateless, VersionHeader.of(null)).generation(),
                "a claim wins over the initialize method");
        var unknown = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + meta.formatted("v999") + "}}");
        assertEquals(Generation.STATELESS, GenerationRouter.route(unknown, VersionHeader.of(null)).generation(),
                "an unknown claim is refused with -32022");
        var sessionClaim = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":"
                + meta.formatted("2025-11-25") + "}}");
        assertEquals(Generation.SESSION, GenerationRouter.route(sessionClaim, VersionHeader.of(null)).generation());
        var plain = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals(Generation.SESSION, GenerationRouter.route(plain, VersionHeader.of(null)).generation());
        assertEquals(Generation.SESSION, GenerationRouter.route(plain, VersionHeader.of("2025-06-18")).generation());
        assertEquals(Generation.STATELESS, GenerationRouter.route(plain, VersionHeader.of(" 2026-07-28 ")).generation(),
                "the header alone: an envelope missing");
        var batch = JSON.readTree("[" + plain + "," + stateless + "]");
        assertTrue(GenerationRouter.mixesGenerations(batch));
        var sessionBatch = JSON.readTree("[" + plain + "]");
        assertFalse(GenerationRouter.mixesGenerations(sessionBatch));
        assertEquals(Generation.SESSION, GenerationRouter.route(sessionBatch, VersionHeader.of(null)).generation());
    }
}
