package dev.quaestor;

import dev.quaestor.support.Wait;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * 2025 sessions end after an idle time and at their token's expiry, and a scheduled sweep deletes their
 * rows (sessions and subscriptions), each end audited first, so the tables stay bounded however many
 * clients come and go. Here the idle time is 3 s and the sweep runs every second.
 */
@QuarkusTest
@TestProfile(SessionSweepTest.ShortSessions.class)
class SessionSweepTest {

    public static class ShortSessions implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.sessions.idle-timeout", "3S", "quaestor.sessions.sweep-interval", "1S",
                    "quaestor.subscriptions.stream-check-interval", "1S");
        }
    }

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
    private static final String SUBSCRIBE = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/subscribe\","
            + "\"params\":{\"uri\":\"test://static-text\"}}";

    @TestHTTPResource("/")
    URL base;
    @Inject
    AgroalDataSource ds;
    @Inject
    MeterRegistry metrics;

    private long rows(String table) throws Exception {
        try (var c = ds.getConnection(); var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void waitForNoRows(long millis) throws Exception {
        if (Wait.holdsWithin(Duration.ofMillis(millis), Duration.ofMillis(100),
                () -> rows("mcp_session") == 0 && rows("mcp_subscription") == 0)) {
            return;
        }
        fail("rows left after " + millis + " ms: " + rows("mcp_session") + " sessions, " + rows("mcp_subscription") + " subscriptions");
    }

    @Test
    void tenThousandAbandonedSessionsLeaveNoRows() throws Exception {
        Instant since = Instant.now().minusSeconds(1);
        // A hundred subjects of the test's own: opening a session spends a rate-limit token (600 a minute per subject),
        // and a subject holds at most quaestor.limits.per-subject.sessions (100) live sessions.
        List<String> users = new ArrayList<>();
        for (int u = 0; u < 100; u++) {
            users.add(String.format("sweep-%02d", u));
        }
        Map<String, String> tokens = new java.util.HashMap<>();
        users.forEach(u -> tokens.put(u, TestIssuer.sign(TestIssuer.claims(u))));
        String url = base.toString().replaceAll("/$", "");
        int sessions = 10_000;
        Timer sweeps = metrics.find("quaestor.sessions.sweep").timer();
        long sweepsBefore = sweeps.count();
        double millisBefore = sweeps.totalTime(TimeUnit.MILLISECONDS);
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            var futures = new ArrayList<Future<?>>();
            for (int t = 0; t < 8; t++) {
                int from = t;
                futures.add(pool.submit(() -> {
                    HttpClient http = McpHttp.newClient();
                    for (int i = from; i < sessions; i += 8) {
                        // Spread evenly over the subjects (at most 100 each), subscriptions too.
                        String token = tokens.get(users.get(i % users.size()));
                        String session = McpHttp.initialize(http, url, token);
                        if (i % 10 == 0) {
                            // Every tenth also subscribes: its subscription must go with it.
                            var r = http.send(HttpRequest.newBuilder(URI.create(url + "/mcp"))
                                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                                    .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                                    .POST(HttpRequest.BodyPublishers.ofString(SUBSCRIBE)).build(), HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() != 200 || !r.body().contains("\"result\"")) {
                                throw new IllegalStateException("subscribe said " + r.statusCode() + ": " + r.body());
                            }
                        }
                    }
                    return null;
                }));
            }
            for (var f : futures) {
                f.get(10, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        double openedSeconds = (System.nanoTime() - start) / 1e9;
        // Abandoned: nobody uses or deletes them. Once the idle time has passed, the sweep leaves nothing.
        waitForNoRows(30_000);
        double goneSeconds = (System.nanoTime() - start) / 1e9;

        String who = "subject LIKE 'sweep-%' AND event_time > ?";
        assertEquals(sessions, AuditRow.count("kind = 'SESSION_OPEN' AND " + who, since), "every opening recorded");
        assertEquals(sessions, AuditRow.count("kind = 'SESSION_CLOSE' AND outcome = 'idle-timeout' AND " + who, since),
                "every end recorded, once");
        double sweepMillis = sweeps.totalTime(TimeUnit.MILLISECONDS) - millisBefore;
        System.out.printf("session sweep: %d sessions (%d with a subscription) opened in %.1f s, all rows gone %.1f s after"
                        + " the first was opened; %d sweeps took %.0f ms in all (longest in the last two minutes %.0f ms),"
                        + " %.3f ms per session, its SESSION_CLOSE record included%n",
                sessions, sessions / 10, openedSeconds, goneSeconds, sweeps.count() - sweepsBefore, sweepMillis,
                sweeps.max(TimeUnit.MILLISECONDS), sweepMillis / sessions);
    }

    @Test
    void anIdleSessionEndsAndIsRecorded() throws Exception {
        String token = TestIssuer.tokenFor("admin");
        String used = Rpc.initialize(token, "2025-11-25");
        String idle = Rpc.initialize(token, "2025-11-25");
        // One session is used every half second until the other, left alone, has ended for being idle.
        long opened = System.nanoTime();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Rpc.call(token, used, PING).statusCode(200);
            return AuditRow.count("kind = 'SESSION_CLOSE' AND session_id = ?", idle) > 0;
        });
        assertTrue(System.nanoTime() - opened >= TimeUnit.SECONDS.toNanos(3), "not before its idle time (3 s)");
        Rpc.call(token, used, PING).statusCode(200);
        Rpc.call(token, idle, PING).statusCode(404);
        Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(100),
                () -> AuditRow.count("kind = 'SESSION_CLOSE' AND session_id = ?", idle) > 0);
        var close = AuditRow.first("kind = 'SESSION_CLOSE' AND session_id = ?", idle);
        assertEquals("idle-timeout", close.outcome);
        assertEquals("admin", close.subject);
        assertEquals("2025-11-25", close.protocol);
        assertEquals(1, AuditRow.count("kind = 'SESSION_OPEN' AND session_id = ?", idle));
    }

    @Test
    void aSessionEndsWhenItsLatestTokenExpires() throws Exception {
        String fresh = TestIssuer.tokenFor("auditor");
        // A first call warms the token check up (issuer keys), so that the short-lived token below is checked at once.
        Rpc.initialize(fresh, "2025-06-18");
        // Expires 2 to 3 s from now: before the idle time (3 s) has passed for a session opened now.
        Instant expiry = Instant.now().plusSeconds(3).truncatedTo(ChronoUnit.SECONDS);
        String shortLived = TestIssuer.sign(TestIssuer.claims("auditor").claim("tenant", "acme").expiresAt(expiry.getEpochSecond()));
        String left = Rpc.initialize(shortLived, "2025-06-18");
        String renewed = Rpc.initialize(shortLived, "2025-06-18");
        // Used with a token that expires later: the session now lives as long as that one.
        Rpc.call(fresh, renewed, PING).statusCode(200);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(500)).until(() -> {
            Rpc.call(fresh, renewed, PING).statusCode(200);
            return Instant.now().isAfter(expiry.plusMillis(200));
        });
        // A fresh token does not bring back a session whose latest token has expired: the client opens a new one.
        Rpc.call(fresh, left, PING).statusCode(404);
        Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(100),
                () -> AuditRow.count("kind = 'SESSION_CLOSE' AND session_id = ?", left) > 0);
        assertEquals("token-expired", AuditRow.first("kind = 'SESSION_CLOSE' AND session_id = ?", left).outcome);
        assertEquals(0, AuditRow.count("kind = 'SESSION_CLOSE' AND session_id = ?", renewed));
    }

    @Test
    void anOpenEventStreamKeepsItsSessionAliveAndDeleteIsRecorded() throws Exception {
        String token = TestIssuer.tokenFor("admin");
        String session = Rpc.initialize(token, "2025-06-18");
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (var stream = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            assertEquals(":stream open", stream.readLine());
            // Past the idle time (3 s) with nothing but the open stream, and a sweep after that.
            Timer sweeps = metrics.find("quaestor.sessions.sweep").timer();
            long idleOver = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            long[] sweepsThen = {-1};
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (sweepsThen[0] < 0 && System.nanoTime() > idleOver) {
                    sweepsThen[0] = sweeps.count();
                }
                return sweepsThen[0] >= 0 && sweeps.count() > sweepsThen[0];
            });
            Rpc.call(token, session, PING).statusCode(200);
        }
        var delete = given().header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session).delete("/mcp")
                .then().statusCode(204).extract();
        var close = AuditRow.first("kind = 'SESSION_CLOSE' AND session_id = ?", session);
        assertEquals("deleted", close.outcome);
        assertEquals(delete.header("X-Request-Id"), close.requestId);
        Rpc.call(token, session, PING).statusCode(404);
        boolean gone = Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(100), () -> {
            try (var c = ds.getConnection(); var ps = c.prepareStatement("SELECT COUNT(*) FROM mcp_session WHERE id = ?")) {
                ps.setString(1, session);
                var rs = ps.executeQuery();
                rs.next();
                return rs.getLong(1) == 0;
            }
        });
        if (gone) {
            return;
        }
        fail("the deleted session's row is still there");
    }
}
