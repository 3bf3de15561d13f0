package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bounds on what a session holds open: its GET stream ends when the token that opened it
 * expires, and it may hold at most {@code quaestor.subscriptions.max-per-session} subscriptions.
 * Uses the conformance fixtures under test://, which policies/shared.yaml lets everyone subscribe to.
 */
@QuarkusTest
@TestProfile(SubscriptionBoundsTest.SmallBounds.class)
class SubscriptionBoundsTest {

    public static class SmallBounds implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.subscriptions.max-per-session", "3",
                    "quaestor.subscriptions.stream-check-interval", "500ms",
                    "quaestor.subscriptions.keep-alive", "1S");
        }
    }

    private static final List<String> THREE = List.of("test://static-text", "test://static-binary", "test://watched-resource");
    private static final String FOURTH = "test://template/7/data";

    @TestHTTPResource("/")
    URL base;

    @Test
    void theStreamEndsWhenItsTokenExpires() throws Exception {
        // The session is dave's, opened with an ordinary token; the stream is opened with a token signed by the
        // test issuer that expires 5 to 6 s from now (the server allows no lifespan grace).
        String session = Rpc.initialize(TestIssuer.tokenFor("dave"), "2025-06-18");
        Instant expiry = Instant.now().plusSeconds(6).truncatedTo(ChronoUnit.SECONDS);
        String shortLived = TestIssuer.sign(TestIssuer.claims("dave").claim("tenant", "acme").expiresAt(expiry.getEpochSecond()));
        try (var stream = openStream(shortLived, session)) {
            assertEquals(":stream open", stream.readLine());
            // Keep-alive comments arrive every second, so an open stream never blocks the reader for long.
            Instant deadline = Instant.now().plusSeconds(30);
            while (stream.readLine() != null) {
                assertTrue(Instant.now().isBefore(deadline), "the stream did not end; its token expired at " + expiry);
            }
            Instant ended = Instant.now();
            assertFalse(ended.isBefore(expiry), "the stream ended at " + ended + ", before its token expired at " + expiry);
            assertTrue(ended.isBefore(expiry.plusSeconds(5)), "the stream ended at " + ended + ", long after its token expired at " + expiry);
        }
        // The session itself lives on: the client reconnects with a fresh token.
        try (var again = openStream(TestIssuer.tokenFor("dave"), session)) {
            assertEquals(":stream open", again.readLine());
        }
    }

    @Test
    void aSessionHoldsAtMostMaxPerSessionSubscriptions() {
        Instant since = Instant.now().minusSeconds(1);
        McpSyncClient full = McpClients.connect(base, TestIssuer.tokenFor("erin"));
        McpSyncClient other = McpClients.connect(base, TestIssuer.tokenFor("erin"));
        try {
            for (String uri : THREE) {
                full.subscribeResource(new McpSchema.SubscribeRequest(uri));
            }
            // Subscribing again to one already held is not a new subscription.
            full.subscribeResource(new McpSchema.SubscribeRequest(THREE.get(0)));

            var error = McpClients.expectError(() -> full.subscribeResource(new McpSchema.SubscribeRequest(FOURTH))).getJsonRpcError();
            assertEquals(-32600, error.code());
            assertEquals("Too many subscriptions for one MCP session", error.message());
            @SuppressWarnings("unchecked")
            var data = (Map<String, Object>) error.data();
            assertEquals(FOURTH, data.get("uri"));
            assertEquals(3, ((Number) data.get("maxSubscriptions")).intValue());

            // The limit is per session: another session of the same subject still may subscribe.
            other.subscribeResource(new McpSchema.SubscribeRequest(FOURTH));
            // Back under the limit, the refused subscription is accepted.
            full.unsubscribeResource(new McpSchema.UnsubscribeRequest(THREE.get(1)));
            full.subscribeResource(new McpSchema.SubscribeRequest(FOURTH));
        } finally {
            full.closeGracefully();
            other.closeGracefully();
        }

        List<AuditRow> outcomes = AuditRow.list("kind = 'OUTCOME' and method = 'resources/subscribe' and subject = 'erin'"
                + " and uri = ? and event_time > ? order by id", FOURTH, since);
        assertEquals(List.of("too-many-subscriptions", "ok", "ok"), outcomes.stream().map(o -> o.outcome).toList());
        AuditRow refused = outcomes.get(0);
        assertEquals(-32600, refused.errorCode);
        assertEquals("subscribe", refused.action);
        assertTrue(refused.detail.contains("at most 3"), refused.detail);
        List<AuditRow> decisions = AuditRow.list("kind = 'DECISION' and request_id = ?", refused.requestId);
        assertEquals(1, decisions.size(), "the refused subscribe has its DECISION record too");
        assertEquals("ALLOW", decisions.get(0).decision);
        assertNull(decisions.get(0).errorCode);
    }

    private BufferedReader openStream(String token, String session) throws Exception {
        var response = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + "/mcp"))
                        .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                        .header("Mcp-Session-Id", session).GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }
}
