package dev.quaestor;

import dev.quaestor.support.Wait;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An identity provider that is slow (not down) at start-up: its discovery document and keys answer only after 30 s,
 * past the server's connection timeout, so the server starts without them. Requests that need a token checked are
 * then answered at once with 503 on record, while one attempt at a time loads the issuer's metadata (not one per
 * request); once the issuer answers in time, tokens are checked and requests served.
 */
@QuarkusTest
@TestProfile(SlowIssuerTest.SlowAtStartUp.class)
class SlowIssuerTest {

    public static class SlowAtStartUp implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.oidc.connection-delay", "2S", "quarkus.oidc.connection-timeout", "1S",
                    "quaestor.identity.issuer-retry", "1s");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(SlowMetadata.class));
        }
    }

    /** Slows the test issuer's discovery document and keys down before this profile's server starts. */
    public static class SlowMetadata implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            TestIssuer.delayMetadata(Duration.ofSeconds(30));
            return Map.of();
        }

        @Override
        public void stop() {
            TestIssuer.delayMetadata(Duration.ZERO);
        }
    }

    private static final ExecutorService POOL = Executors.newFixedThreadPool(32);

    @TestHTTPResource("/mcp")
    URI mcp;

    @AfterAll
    static void stop() {
        TestIssuer.delayMetadata(Duration.ZERO);
        POOL.shutdownNow();
    }

    record Answer(int status, String retryAfter, String requestId, long millis) {
    }

    @Test
    void whileTheIssuerIsSlowRequestsGet503OnRecordAtOnceAndItsMetadataIsAskedForOneAttemptAtATime() throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims("alice"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        long before = TestIssuer.metadataCalls();
        long t0 = System.nanoTime();
        var sent = new ArrayList<Future<Answer>>();
        for (int i = 0; i < 32; i++) {
            sent.add(POOL.submit(() -> {
                long start = System.nanoTime();
                var r = http.send(HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(60))
                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", Modern.VERSION)
                        .header("Mcp-Method", "server/discover")
                        .POST(HttpRequest.BodyPublishers.ofString(Modern.body(1, "server/discover", null))).build(),
                        HttpResponse.BodyHandlers.discarding());
                return new Answer(r.statusCode(), r.headers().firstValue("Retry-After").orElse(null),
                        r.headers().firstValue("X-Request-Id").orElse(null), (System.nanoTime() - start) / 1_000_000);
            }));
        }
        var answers = new ArrayList<Answer>();
        for (Future<Answer> f : sent) {
            answers.add(f.get(90, TimeUnit.SECONDS));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long calls = TestIssuer.metadataCalls() - before;
        long slowest = answers.stream().mapToLong(Answer::millis).max().orElseThrow();
        System.out.printf("SlowIssuerTest: 32 requests while the issuer was slow: answered in %.2f s (slowest %d ms),"
                + " %d discovery or key fetches%n", seconds, slowest, calls);
        for (Answer a : answers) {
            assertEquals(503, a.status(), a.toString());
            assertEquals("5", a.retryAfter());
            assertNotNull(a.requestId());
            AuditRow r = AuditRow.first("request_id = ?", a.requestId());
            assertNotNull(r, "the 503 is on record: " + a.requestId());
            assertEquals("AUTHENTICATION", r.kind);
            assertEquals("issuer-unavailable", r.outcome);
        }
        assertTrue(slowest < 10_000, "answered without waiting on the issuer (30 s): slowest " + slowest + " ms");
        // The auditor's and administrator's doors need a token checked too: refused alike, on record alike.
        for (String door : List.of("/audit/search", "/admin/policy")) {
            var r = http.send(HttpRequest.newBuilder(mcp.resolve(door)).timeout(Duration.ofSeconds(60))
                    .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(503, r.statusCode(), door);
            assertEquals("{\"error\":\"Service unavailable: the identity provider cannot be reached to check tokens\",\"requestId\":\""
                    + r.headers().firstValue("X-Request-Id").orElse(null) + "\"}", r.body(), door);
            assertEquals("5", r.headers().firstValue("Retry-After").orElse(null), door);
            AuditRow row = AuditRow.first("request_id = ?", r.headers().firstValue("X-Request-Id").orElseThrow());
            assertNotNull(row, "the 503 is on record: " + door);
            assertEquals("AUTHENTICATION/DENY/issuer-unavailable/GET " + door, row.kind + "/" + row.decision + "/" + row.outcome
                    + "/" + row.method);
        }
        assertTrue(calls < 8, calls + " discovery or key fetches for 32 requests: one attempt at a time, not one per request");

        // Once the issuer answers in time, the attempt under way (or the next) loads its metadata, and tokens are checked.
        TestIssuer.delayMetadata(Duration.ZERO);
        int[] status = {0};
        Wait.holdsWithin(Duration.ofSeconds(60), Duration.ofMillis(250),
                () -> (status[0] = Modern.call(token, 2, "server/discover", null).extract().statusCode()) == 200);
        assertEquals(200, status[0], "served once the issuer answers");
    }
}
