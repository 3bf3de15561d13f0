package dev.quaestor;

import dev.quaestor.support.McpClients;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.identity.VerifiedTokenCache;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verified-token cache: a token is verified once and then answered from the cache, and the
 * cache never lets through what full verification would refuse.
 */
@QuarkusTest
class TokenCacheTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @TestHTTPResource("/")
    URL base;
    @Inject
    VerifiedTokenCache cache;

    private double hits() {
        return cache.hits();
    }

    private static io.restassured.response.ValidatableResponse initialize(String token) {
        return given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).body(INIT).when().post("/mcp").then();
    }

    @Test
    void repeatedTokenIsAnsweredFromTheCacheAndKeepsItsOwnIdentity() {
        String alice = TestIssuer.tokenFor("alice");
        String bob = TestIssuer.tokenFor("bob");
        double before = hits();
        var aliceClient = McpClients.connect(base, alice);
        var bobClient = McpClients.connect(base, bob);
        try {
            for (int i = 0; i < 3; i++) {
                var read = aliceClient.readResource(new McpSchema.ReadResourceRequest("test-data://secret"));
                assertEquals(1, read.contents().size());
                var denied = McpClients.expectError(() -> bobClient.readResource(new McpSchema.ReadResourceRequest("test-data://secret")));
                assertEquals(-32003, denied.getJsonRpcError().code(), "bob's cached identity is bob's, not alice's");
            }
        } finally {
            aliceClient.closeGracefully();
            bobClient.closeGracefully();
        }
        // initialize, notifications/initialized and three reads each: all but the first per token can hit
        assertTrue(hits() - before >= 8, "expected cache hits, got " + (hits() - before) + "; " + cache.stats());
    }

    @Test
    void cachedTokenStopsPassingAtItsExpiry() throws Exception {
        Instant expiry = Instant.now().plusSeconds(2);
        String shortLived = TestIssuer.sign(TestIssuer.claims("alice").expiresAt(expiry));
        initialize(shortLived).statusCode(200);
        double before = hits();
        initialize(shortLived).statusCode(200);
        assertEquals(1, hits() - before, 1e-9, "the second request came from the cache; " + cache.stats());
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).pollInterval(java.time.Duration.ofMillis(100))
                .until(() -> initialize(shortLived).extract().statusCode() != 200);
        assertTrue(!Instant.now().isBefore(expiry.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)), "not refused before its expiry");
        initialize(shortLived).statusCode(401).header("WWW-Authenticate", containsString("invalid_token"));
    }

    @Test
    void alteredCopyOfACachedTokenIsVerifiedAndRefused() {
        String token = TestIssuer.tokenFor("bob");
        initialize(token).statusCode(200);
        initialize(token).statusCode(200);
        // Same signature, payload changed to claim alice's role: a different string, so a miss, then full verification.
        String[] parts = token.split("\\.");
        String payload = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                .replace("\"clinician\"", "\"principal-investigator\"");
        assertTrue(payload.contains("principal-investigator"), payload);
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        double before = hits();
        initialize(forged).statusCode(401);
        initialize(forged).statusCode(401);
        assertEquals(0, hits() - before, 1e-9, "a refused token is never cached");
    }
}
