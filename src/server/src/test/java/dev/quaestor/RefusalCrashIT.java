package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code kill -9} during a flood of denials and during a flood of bad tokens, then a restart: every refusal a client
 * was answered with is on record (a record of its own, or counted in a committed summary), nothing is counted that was
 * not sent, and the log verifies. Refusals past the attempt limit are answered only once the summary counting them has
 * committed, so a crash can lose only refusals that were never answered.
 */
class RefusalCrashIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String IP = "127.0.0.1";
    private static final int THREADS = 16;
    private static final int BATCH = 20;

    /** One kind of request a flood sends: how many refusals it asks for, and the request ids of those answered. */
    interface Shot {
        HttpRequest request(int i);

        int refusalsAsked();

        List<String> refusalsAnswered(HttpResponse<String> r) throws IOException;
    }

    /** What a flood sent and what came back before the server died. */
    static final class Flood {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final AtomicLong lost = new AtomicLong();
        final Set<String> ids = ConcurrentHashMap.newKeySet();
    }

    @Test
    void refusalsAnsweredBeforeAKillAreOnRecordAndTheLogVerifies() throws Exception {
        new TestIssuer().start();
        String dbUrl = ScratchDatabase.recreate("refusal_crash");
        Path key = SigningKeyFile.write(Path.of("target", "refusal-crash-audit-key.pem"));
        Map<String, String> env = Map.ofEntries(
                Map.entry("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer()),
                Map.entry("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE),
                Map.entry("QUAESTOR_DB_URL", dbUrl),
                Map.entry("QUAESTOR_DB_USER", "quaestor_app"),
                Map.entry("QUAESTOR_DB_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_OWNER_USER", "postgres"),
                Map.entry("QUAESTOR_DB_OWNER_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_APP_ROLE", "quaestor_app"),
                Map.entry("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString()),
                Map.entry("QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString()),
                Map.entry("QUAESTOR_AUDIT_ATTEMPTS_LIMIT", "5"),
                Map.entry("QUAESTOR_AUDIT_CHECKPOINT_INTERVAL", "1S"),
                Map.entry("QUAESTOR_IDENTITY_UNAUTHENTICATED_LIMIT_CAPACITY", "3"));
        var server = new ServerProcess("refusal-crash", env);
        java.nio.file.Files.deleteIfExists(server.log());
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            server.start();
            server.awaitReady(Duration.ofSeconds(60));

            // 1. A flood of denied reads (batches of 20, each read a URI of its own), killed part-way.
            String mallory = TestIssuer.sign(TestIssuer.claims("mallory"));
            String session = McpHttp.initialize(McpHttp.newClient(), server.url(), mallory, "2025-03-26");
            Instant since = Instant.now();
            Flood denials = flood(pool, server, deniedBatches(server, mallory, session), 200);
            restart(server);
            try (Connection c = DriverManager.getConnection(dbUrl, "postgres", "")) {
                long own = count(c, "SELECT count(*) FROM audit_entry WHERE subject = 'mallory' AND kind = 'DECISION'"
                        + " AND outcome IN ('refused', 'rate-limited') AND event_time >= ?", since);
                long merged = count(c, "SELECT coalesce(sum(event_count), 0) FROM audit_entry WHERE subject = 'mallory'"
                        + " AND kind = 'ATTEMPT_SUMMARY' AND event_time >= ?", since);
                report("denial flood", denials, own, merged);
                assertTrue(denials.refused.get() <= own + merged, "every refusal answered is on record");
                assertTrue(own + merged <= denials.sent.get(), "nothing is counted that was not sent");
                assertTrue(merged > 0 && denials.lost.get() > 0, "the kill fell in a flood that was being merged");
                assertAllOnRecord(c, denials);
            }

            // 2. A flood of bad tokens (three 401s, then 429s before any token check), killed part-way.
            since = Instant.now();
            Flood badTokens = flood(pool, server, badTokens(server), 20);
            restart(server);
            try (Connection c = DriverManager.getConnection(dbUrl, "postgres", "")) {
                long own = count(c, "SELECT count(*) FROM audit_entry WHERE kind = 'AUTHENTICATION' AND source_ip = '" + IP
                        + "' AND outcome = 'invalid-token' AND event_time >= ?", since);
                // Summaries of 429s turned away before the token check ('throttled'), and of refusals that found the
                // address's individual records spent after passing it ('invalid-token').
                long merged = count(c, "SELECT coalesce(sum(event_count), 0) FROM audit_entry WHERE kind = 'ATTEMPT_SUMMARY'"
                        + " AND outcome IN ('throttled', 'invalid-token') AND source_ip = '" + IP + "' AND event_time >= ?", since);
                report("bad-token flood", badTokens, own, merged);
                assertTrue(badTokens.refused.get() <= own + merged, "every refusal answered is on record");
                assertTrue(own + merged <= badTokens.sent.get(), "nothing is counted that was not sent");
                assertTrue(merged > 0 && badTokens.lost.get() > 0, "the kill fell in a flood that was being merged");
                assertAllOnRecord(c, badTokens);
            }

            // 3. Both kills left a log that verifies, signed to its end: the writer went on from the head as committed.
            // Each /audit/verify writes its own records after those it checks, so "its end" is the log as it stood
            // before the first verify: a checkpoint signed within the 1 s interval must cover it.
            long end;
            try (Connection c = DriverManager.getConnection(dbUrl, "postgres", "");
                    var rs = c.createStatement().executeQuery("SELECT max(seq) FROM audit_entry")) {
                rs.next();
                end = rs.getLong(1);
            }
            String auditor = TestIssuer.tokenFor("auditor");
            var body = new java.util.concurrent.atomic.AtomicReference<String>();
            try {
                org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    var verify = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(server.url() + "/audit/verify"))
                            .header("Authorization", "Bearer " + auditor).build(), HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, verify.statusCode(), verify.body());
                    body.set(verify.body());
                    return JSON.readTree(verify.body()).path("logs").path(0).path("signedThrough").asLong(-1) >= end;
                });
            } catch (org.awaitility.core.ConditionTimeoutException notSigned) {
                // reported by the assertions below, with the last answer
            }
            JsonNode report = JSON.readTree(body.get());
            System.out.println("RefusalCrashIT: audit verify after two kills (log end " + end + "): " + body.get());
            assertTrue(report.path("verified").asBoolean(), body.get());
            assertTrue(report.path("logs").path(0).path("signedThrough").asLong() >= end,
                    "a signed checkpoint covers the whole log as it stood before the verify: " + body.get());
        } finally {
            pool.shutdownNow();
            server.stop();
        }
    }

    /**
     * Floods from 16 threads until {@code enough} refusals have come back (well past the attempt limit, so refusals
     * are being merged), kills the server, and counts what the threads saw.
     */
    private static Flood flood(ExecutorService pool, ServerProcess server, Shot shot, int enough) throws Exception {
        var f = new Flood();
        var running = new AtomicBoolean(true);
        var next = new java.util.concurrent.atomic.AtomicInteger();
        HttpClient http = McpHttp.newClient();
        var threads = new java.util.ArrayList<java.util.concurrent.Future<?>>();
        for (int t = 0; t < THREADS; t++) {
            threads.add(pool.submit(() -> {
                while (running.get()) {
                    HttpRequest r = shot.request(next.getAndIncrement());
                    f.sent.addAndGet(shot.refusalsAsked());
                    try {
                        List<String> answered = shot.refusalsAnswered(http.send(r, HttpResponse.BodyHandlers.ofString()));
                        f.refused.addAndGet(answered.size());
                        f.ids.addAll(answered);
                    } catch (IOException killed) {
                        f.lost.incrementAndGet();
                        Thread.sleep(50);
                    }
                }
                return null;
            }));
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(10)).until(() -> f.refused.get() >= enough);
        server.kill();
        // Requests are failing (the server is gone) before the flood stops.
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(10)).until(() -> f.lost.get() >= THREADS);
        running.set(false);
        for (var t : threads) {
            t.get(60, TimeUnit.SECONDS);
        }
        return f;
    }

    private static void restart(ServerProcess server) throws Exception {
        server.start();
        server.awaitReady(Duration.ofSeconds(60));
    }

    /** A 2025-03-26 batch of 20 denied reads: each element answered -32003 (or -32004 once the rate limit is spent). */
    private static Shot deniedBatches(ServerProcess server, String token, String session) {
        return new Shot() {
            @Override
            public HttpRequest request(int i) {
                var body = new StringBuilder("[");
                for (int k = 0; k < BATCH; k++) {
                    body.append(k == 0 ? "" : ",").append("{\"jsonrpc\":\"2.0\",\"id\":").append(k)
                            .append(",\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/home/bob/crash-")
                            .append(i).append('-').append(k).append(".md\"}}");
                }
                return HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).timeout(Duration.ofSeconds(10))
                        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                        .POST(HttpRequest.BodyPublishers.ofString(body.append(']').toString())).build();
            }

            @Override
            public int refusalsAsked() {
                return BATCH;
            }

            @Override
            public List<String> refusalsAnswered(HttpResponse<String> r) throws IOException {
                var out = new ArrayList<String>();
                if (r.statusCode() == 200) {
                    for (JsonNode a : JSON.readTree(r.body())) {
                        int code = a.path("error").path("code").asInt();
                        if (code == -32003 || code == -32004) {
                            out.add(a.path("error").path("data").path("requestId").asText());
                        }
                    }
                }
                return out;
            }
        };
    }

    /** A request with a token the server refuses: 401 while the address has tokens to spend, then 429. */
    private static Shot badTokens(ServerProcess server) {
        return new Shot() {
            @Override
            public HttpRequest request(int i) {
                return HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).timeout(Duration.ofSeconds(10))
                        .header("Authorization", "Bearer bad-token-" + i).header("Content-Type", "application/json")
                        .header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).build();
            }

            @Override
            public int refusalsAsked() {
                return 1;
            }

            @Override
            public List<String> refusalsAnswered(HttpResponse<String> r) {
                return r.statusCode() == 401 || r.statusCode() == 429
                        ? List.of(r.headers().firstValue("X-Request-Id").orElseThrow()) : List.of();
            }
        };
    }

    private static void assertAllOnRecord(Connection c, Flood f) throws SQLException {
        try (var ps = c.prepareStatement("SELECT count(*) FROM audit_entry WHERE request_id = ?")) {
            for (String id : f.ids) {
                ps.setString(1, id);
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals(1, rs.getLong(1), "the request id a refusal was answered with is on record: " + id);
                }
            }
        }
    }

    private static long count(Connection c, String sql, Instant since) throws SQLException {
        try (var ps = c.prepareStatement(sql)) {
            ps.setObject(1, since.atOffset(ZoneOffset.UTC));
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void report(String what, Flood f, long own, long merged) {
        System.out.printf("RefusalCrashIT: %s: %d refusals asked for, %d received (%d requests failed once the server was"
                + " killed); on record: %d records of their own + %d counted in summaries = %d%n", what, f.sent.get(),
                f.refused.get(), f.lost.get(), own, merged, own + merged);
    }
}
