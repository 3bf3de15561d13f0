package dev.quaestor.mcp.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.mcp.wire.VersionHeader;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which protocol era a POST is routed to. */
class EraRouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void postsAreRoutedByWhatTheyCarry() throws Exception {
        String meta = "{\"io.modelcontextprotocol/protocolVersion\":\"%s\",\"io.modelcontextprotocol/clientCapabilities\":{}}";
        var modern = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"_meta\":"
                + meta.formatted("2026-07-28") + "}}");
        assertEquals(EraRouter.Era.MODERN, EraRouter.route(modern, VersionHeader.of(null)).era(), "a claim wins over the initialize method");
        var unknown = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":"
                + meta.formatted("v999") + "}}");
        assertEquals(EraRouter.Era.MODERN, EraRouter.route(unknown, VersionHeader.of(null)).era(), "an unknown claim is refused with -32022");
        var legacyClaim = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":"
                + meta.formatted("2025-11-25") + "}}");
        assertEquals(EraRouter.Era.LEGACY, EraRouter.route(legacyClaim, VersionHeader.of(null)).era());
        var plain = JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}");
        assertEquals(EraRouter.Era.LEGACY, EraRouter.route(plain, VersionHeader.of(null)).era());
        assertEquals(EraRouter.Era.LEGACY, EraRouter.route(plain, VersionHeader.of("2025-06-18")).era());
        assertEquals(EraRouter.Era.MODERN, EraRouter.route(plain, VersionHeader.of(" 2026-07-28 ")).era(), "the header alone: an envelope missing");
        var batch = JSON.readTree("[" + plain + "," + modern + "]");
        assertEquals(EraRouter.Era.MIXED_BATCH, EraRouter.route(batch, VersionHeader.of(null)).era());
        assertEquals(EraRouter.Era.LEGACY, EraRouter.route(JSON.readTree("[" + plain + "]"), VersionHeader.of(null)).era());
    }
}
