package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refused authentications are limited per source address before tokens are checked: after the
 * burst, a flood of bad tokens gets 429, and each 429 is counted into an ATTEMPT_SUMMARY per address and
 * merge window (exact count, first and last time) that has committed before the 429 is sent, with the
 * summary's request id: not one record per request, and no count held only in memory. A caller whose token
 * was accepted before is still served, and a request without a token still gets its 401 challenge.
 */
@QuarkusTest
@TestProfile(UnauthenticatedLimitTest.Tight.class)
class UnauthenticatedLimitTest {

    /** The merge window, shorter than the shipped second so that the flood's 429s, each sent once its summary committed, wait less. */
    static final Duration WINDOW = Duration.ofMillis(250);

    public static class Tight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.identity.unauthenticated-limit.capacity", "3",
                    "quaestor.identity.unauthenticated-limit.period", "600s",
                    "quaestor.audit.attempts.merge-window", WINDOW.toMillis() + "ms");
        }
    }

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @Test
    void aFloodOfBadTokensIsCutOffAndLeavesABoundedTrail() {
        String good = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(good, "2025-06-18");
        Instant since = Instant.now();

        Set<String> refusedIds = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            // Sent only once its record has committed: the record is there at once, under the 401's request id.
            String id = given().header("Authorization", "Bearer not-a-token-" + i).contentType("application/json")
                    .accept("application/json, text/event-stream").body(PING).post("/mcp").then().statusCode(401)
                    .extract().header("X-Request-Id");
            AuditRow r = AuditRow.first("request_id = ?", id);
            assertNotNull(r, "the 401's record committed before the 401 was sent");
            assertEquals("invalid-token", r.outcome);
            refusedIds.add(id);
        }
        long t0 = System.nanoTime();
        Set<String> summaryIds = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            ExtractableResponse<Response> r = given().header("Authorization", "Bearer flood-" + i).contentType("application/json")
                    .accept("application/json, text/event-stream").body(PING).post("/mcp").then().statusCode(429)
                    .header("Retry-After", Integer::parseInt, greaterThan(0))
                    .body("error.code", equalTo(-32004)).extract();
            assertEquals(r.header("X-Request-Id"), r.path("error.data.requestId"));
            summaryIds.add(r.header("X-Request-Id"));
        }
        Duration flood = Duration.ofNanos(System.nanoTime() - t0);
        // A new client without a token still gets its challenge, to find the authorization server; its refusal is
        // counted into a summary of its own reason, past the address's budget.
        String challenged = given().contentType("application/json").accept("application/json, text/event-stream").body(PING)
                .post("/mcp").then().statusCode(401).header("WWW-Authenticate", containsString("resource_metadata="))
                .extract().header("X-Request-Id");
        AuditRow noToken = AuditRow.first("request_id = ?", challenged);
        assertEquals("ATTEMPT_SUMMARY", noToken.kind);
        assertEquals("no-token", noToken.outcome);
        assertEquals(1L, noToken.eventCount);

        // A token this server accepted before still gets through from the same address.
        Rpc.call(good, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/templates/list\"}").statusCode(200);

        assertEquals(3, AuditRow.count("kind = 'AUTHENTICATION' and outcome = 'invalid-token' and event_time >= ?", since),
                "each refused token before the cut-off is recorded");
        // Every 429 was sent after its summary committed: they are all there now, without waiting, and count exactly
        // the 20 requests turned away, one summary per merge window of the flood.
        List<AuditRow> summaries = AuditRow.list("kind = 'ATTEMPT_SUMMARY' and outcome = 'throttled' and event_time >= ?", since);
        assertEquals(20L, summaries.stream().mapToLong(r -> r.eventCount).sum(), "exact count, nothing dropped uncounted");
        for (String id : summaryIds) {
            assertTrue(summaries.stream().anyMatch(s -> s.requestId.equals(id)), "every 429 names a committed summary: " + id);
        }
        assertEquals(summaryIds.size(), summaries.size());
        assertTrue(summaries.size() <= flood.toMillis() / WINDOW.toMillis() + 2, summaries.size() + " summaries for a flood of "
                + flood.toMillis() + " ms: at most one per address and merge window (" + WINDOW.toMillis() + " ms)");
        for (AuditRow r : summaries) {
            assertEquals("throttled", r.outcome);
            assertEquals(-32004, r.errorCode);
            assertNull(r.subject);
            assertNotNull(r.sourceIp);
            assertTrue(r.firstTime != null && !r.lastTime.isBefore(r.firstTime), r.toString());
            assertEquals(r.eventCount, r.urisMore, "no URI: every event is counted in uris_more");
        }
        assertEquals(0, AuditRow.count("kind = 'AUTHENTICATION' and outcome = 'throttled' and event_time >= ?", since),
                "turned-away requests leave no record of their own");
        assertTrue(refusedIds.stream().noneMatch(summaryIds::contains));
    }
}
