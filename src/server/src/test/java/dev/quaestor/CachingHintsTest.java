package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * 2026-07-28 caching hints. Every resource result (listing pages, templates, content) is {@code private}: a
 * {@code public} result may be served by shared caches to anyone, the unauthenticated included, with no policy
 * decision and no audit record. {@code ttlMs} follows the mount ({@code quaestor.mounts.<name>.ttl-ms}, default 0;
 * the test-data mount says 60 s), and a result drawn from every mount (a listing) takes the shortest. The
 * {@code OUTCOME} records the scope the response declared; 2025 responses declare none.
 */
@QuarkusTest
class CachingHintsTest {

    private final String bob = TestIssuer.tokenFor("bob");

    private static void declares(ExtractableResponse<Response> r, long ttlMs) {
        assertEquals(200, r.statusCode(), r.asString());
        assertEquals("complete", r.jsonPath().getString("result.resultType"), r.asString());
        assertEquals("private", r.jsonPath().getString("result.cacheScope"), r.asString());
        assertEquals(ttlMs, r.jsonPath().getLong("result.ttlMs"), r.asString());
        var outcome = AuditRow.first("request_id = ? AND kind = 'OUTCOME'", r.header("X-Request-Id"));
        assertEquals("private", outcome.cacheScope, "the OUTCOME records the declared scope");
    }

    @Test
    void everyResourceResultIsPrivateAndTtlFollowsTheMount() {
        Map<String, Long> reads = Map.of(
                "test-data://shadowed", 60_000L,          // testdata: ttl-ms=60000
                "test://static-text", 0L,                 // fixtures: default
                "test://static-binary", 0L,
                "test://template/5/data", 0L,
                "file:///docs/handbook/welcome.md", 0L);  // docs: default
        int id = 1;
        for (var e : reads.entrySet()) {
            declares(Modern.read(bob, id++, e.getKey()).extract(), e.getValue());
        }
        // A listing page or the template list spans every mount: the shortest lifetime, 0.
        declares(Modern.call(bob, id++, "resources/list", null).extract(), 0);
        var next = Modern.call(bob, id++, "resources/list", null).extract().jsonPath().getString("result.nextCursor");
        declares(Modern.call(bob, id++, "resources/list", "\"cursor\":\"" + next + "\"").extract(), 0);
        declares(Modern.call(bob, id++, "resources/templates/list", null).extract(), 0);
    }

    @Test
    void discoveryIsTheOnePublicResult() {
        var r = Modern.call(bob, 1, "server/discover", null).statusCode(200).extract();
        assertEquals("public", r.jsonPath().getString("result.cacheScope"));
    }

    @Test
    void the2025RevisionsDeclareNoCacheScope() {
        String session = Rpc.initialize(bob, "2025-11-25");
        var r = Rpc.call(bob, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"test-data://shadowed\"}}").statusCode(200).extract();
        assertNull(r.jsonPath().get("result.cacheScope"));
        assertNull(r.jsonPath().get("result.ttlMs"));
        var outcome = AuditRow.first("request_id = ? AND kind = 'OUTCOME'", r.header("X-Request-Id"));
        assertNull(outcome.cacheScope);
        assertEquals("2025-11-25", outcome.protocol);
        assertEquals(session, outcome.sessionId);
    }
}
