package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.LocalRedis;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server on the Redis backend, against a private redis-server the test stops and starts:
 * a {@code fail: closed} limit refuses with -32005 while Redis is away, a {@code fail: open}
 * limit admits and audits every such admission, and both recover by themselves.
 */
@QuarkusTest
@TestProfile(RedisLimitsTest.OnRedis.class)
class RedisLimitsTest {

    static LocalRedis redis;

    public static class OnRedis implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(RedisAndPolicies.class));
        }
    }

    public static class RedisAndPolicies implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            try {
                redis = new LocalRedis();
                Path dir = Files.createDirectories(Path.of("target", "redis-test-policies"));
                Files.writeString(dir.resolve("limits.yaml"), """
                        apiVersion: quaestor/v1
                        kind: Policy
                        rules:
                          - id: guarded-readers
                            effect: allow
                            actions: [read]
                            resources: ["test-data://guarded-closed", "test-data://guarded-open"]
                            subjects: {subjects: ["*"]}
                        limits:
                          - id: strict
                            key: subject
                            capacity: 1000
                            refill: {tokens: 1000, period: 1m}
                            resources: ["test-data://guarded-closed"]
                          - id: lenient
                            key: subject
                            capacity: 1000
                            refill: {tokens: 1000, period: 1m}
                            resources: ["test-data://guarded-open"]
                            fail: open
                        """);
                return Map.of("quaestor.ratelimit.backend", "redis", "quaestor.ratelimit.redis.url", redis.url(),
                        "quaestor.policies.path", dir.toString());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void stop() {
            try {
                redis.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static String read(String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    private static AuditRow outcome(String requestId) {
        return AuditRow.list(
                "request_id = ? and kind = 'OUTCOME'", requestId).get(0);
    }

    @Test
    void failModesWhileRedisIsDownAndRecoveryAfter() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.call(token, session, read("test-data://guarded-closed")).statusCode(200)
                .header("RateLimit-Policy", equalTo("\"strict\";q=1000;w=60"))
                .header("RateLimit", containsString("r=999"));
        Rpc.call(token, session, read("test-data://guarded-open")).statusCode(200);

        redis.stop();
        try {
            long start = System.nanoTime();
            String refused = Rpc.call(token, session, read("test-data://guarded-closed"))
                    .statusCode(503)
                    .body("error.code", equalTo(-32005))
                    .body("error.message", containsString("rate limiter"))
                    .extract().path("error.data.requestId");
            // The bound is 250 ms; unbounded, Lettuce would wait 60 s. 10 s leaves room for a loaded CI machine.
            assertTrue((System.nanoTime() - start) / 1_000_000 < 10_000, "refused within the Redis time bound");
            var rows = AuditRow.list("request_id = ?", refused);
            assertEquals(1, rows.size(), "the refusal is one DECISION record");
            AuditRow r = rows.get(0);
            assertEquals("DECISION", r.kind);
            assertEquals("rate-limit-unavailable", r.outcome);
            assertEquals(-32005, r.errorCode);

            for (int i = 0; i < 2; i++) {
                String admitted = Rpc.call(token, session, read("test-data://guarded-open")).statusCode(200)
                        .body("result.contents[0].text", containsString("fails open"))
                        .extract().header("X-Request-Id");
                assertEquals("limit lenient admitted unchecked (fail: open, redis unavailable)", outcome(admitted).detail,
                        "every fail-open admission is audited");
            }
        } finally {
            redis.start();
        }

        // Recovers by itself once Redis is back.
        org.awaitility.Awaitility.await("recovery once Redis is back").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Rpc.call(token, session, read("test-data://guarded-closed")).extract().statusCode() == 200);
        String after = Rpc.call(token, session, read("test-data://guarded-open")).statusCode(200).extract().header("X-Request-Id");
        assertEquals(null, outcome(after).detail);
    }
}
