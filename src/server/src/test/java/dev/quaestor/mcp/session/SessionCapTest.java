package dev.quaestor.mcp.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.McpHttp;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The per-subject cap on live 2025 sessions holds exactly under concurrency: many {@code initialize} calls of one
 * subject at the same moment open no more sessions than the cap, and the rest are refused with the cap's error.
 */
@QuarkusTest
@TestProfile(SessionCapTest.CapOfFive.class)
class SessionCapTest {

    public static class CapOfFive implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.limits.per-subject.sessions", "5");
        }
    }

    private static final int CAP = 5;
    private static final int CALLERS = 32;
    /** Bursts, each of a subject of its own: a race that a single burst may miss is met in one of them. */
    private static final int BURSTS = 12;

    @TestHTTPResource("/")
    URI base;

    @Inject
    AgroalDataSource ds;

    @Test
    void concurrentInitializesOfOneSubjectOpenNoMoreSessionsThanTheCap() throws Exception {
        for (int burst = 0; burst < BURSTS; burst++) {
            burst("session-cap-" + burst + "-" + System.nanoTime());
        }
    }

    private void burst(String subject) throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims(subject));
        String url = base.toString().replaceAll("/$", "");
        var barrier = new CyclicBarrier(CALLERS);
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        List<Future<HttpResponse<String>>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < CALLERS; i++) {
                answers.add(callers.submit(() -> {
                    HttpClient http = McpHttp.newClient();
                    barrier.await(30, TimeUnit.SECONDS);
                    return McpHttp.initializeAnswer(http, url, token, "2025-06-18");
                }));
            }
            int opened = 0;
            List<String> otherwise = new ArrayList<>();
            for (var f : answers) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                if (r.statusCode() == 200 && r.headers().firstValue("Mcp-Session-Id").isPresent()) {
                    opened++;
                } else if (r.statusCode() != 429 || !r.body().contains("Too many open MCP sessions")) {
                    otherwise.add(r.statusCode() + " " + r.body());
                }
            }
            assertEquals(CAP, opened, "sessions opened for " + subject);
            assertEquals(List.of(), otherwise, "every other initialize is refused at the cap (429)");
        } finally {
            callers.shutdownNow();
        }
        try (var c = ds.getConnection();
                var ps = c.prepareStatement("SELECT count(*) FROM mcp_session WHERE subject = ? AND ended_at IS NULL")) {
            ps.setString(1, subject);
            try (var rs = ps.executeQuery()) {
                rs.next();
                assertEquals(CAP, rs.getInt(1), "live sessions of the subject in the database");
            }
        }
    }
}
