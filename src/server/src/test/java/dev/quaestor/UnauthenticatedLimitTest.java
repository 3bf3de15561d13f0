package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refused authentications are limited per source address before tokens are checked: after the
 * burst, a flood of bad tokens gets 429 and leaves one audit record and, when its window closes,
 * one ATTEMPT_SUMMARY with the exact count, first and last time, not one record per request; a
 * caller whose token was accepted before is still served.
 */
@QuarkusTest
@TestProfile(UnauthenticatedLimitTest.Tight.class)
class UnauthenticatedLimitTest {

    public static class Tight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.identity.unauthenticated-limit.capacity", "3",
                    "quaestor.identity.unauthenticated-limit.period", "600s",
                    "quaestor.identity.unauthenticated-limit.summary-window", "5s");
        }
    }

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @Test
    void aFloodOfBadTokensIsCutOffAndLeavesABoundedTrail() {
        String good = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(good, "2025-06-18");
        Instant since = Instant.now();

        for (int i = 0; i < 3; i++) {
            given().header("Authorization", "Bearer not-a-token-" + i).contentType("application/json")
                    .accept("application/json, text/event-stream").body(PING).post("/mcp").then().statusCode(401);
        }
        for (int i = 0; i < 20; i++) {
            given().header("Authorization", "Bearer flood-" + i).contentType("application/json")
                    .accept("application/json, text/event-stream").body(PING).post("/mcp").then().statusCode(429)
                    .header("Retry-After", Integer::parseInt, greaterThan(0))
                    .body("error.code", equalTo(-32004));
        }
        given().contentType("application/json").accept("application/json, text/event-stream").body(PING)
                .post("/mcp").then().statusCode(429);

        // A token this server accepted before still gets through from the same address.
        Rpc.call(good, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/templates/list\"}").statusCode(200);

        long refused = AuditRow.count(
                "kind = 'AUTHENTICATION' and outcome = 'invalid-token' and event_time >= ?", since);
        assertEquals(3, refused, "each refused token before the cut-off is recorded");

        // The 21 requests turned away (20 bad tokens, one without) are counted exactly: each window of the flood records
        // its first at once and closes with one summary counting all of its requests (usually one window; a slow
        // machine may split the flood across two).
        long until = System.currentTimeMillis() + 20_000;
        List<AuditRow> summaries = List.of();
        while (summaries.stream().mapToLong(r -> r.eventCount).sum() < 21 && System.currentTimeMillis() < until) {
            summaries = AuditRow.list("kind = 'ATTEMPT_SUMMARY' and event_time >= ?", since);
            Thread.onSpinWait();
        }
        assertEquals(21L, summaries.stream().mapToLong(r -> r.eventCount).sum(), "exact count, nothing dropped uncounted");
        long throttled = AuditRow.count("kind = 'AUTHENTICATION' and outcome = 'throttled' and event_time >= ?", since);
        assertEquals(summaries.size(), throttled, "one record at the start of each window, not one per request");
        assertTrue(throttled <= 3, "a bounded trail: " + throttled + " windows for 21 requests");
        for (AuditRow r : summaries) {
            assertTrue(r.firstTime != null && !r.lastTime.isBefore(r.firstTime), r.toString());
        }
    }
}
