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
                    "quaestor.identity.unauthenticated-limit.summary-window", "2s");
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
        long throttled = AuditRow.count(
                "kind = 'AUTHENTICATION' and outcome = 'throttled' and event_time >= ?", since);
        assertEquals(3, refused, "each refused token before the cut-off is recorded");
        assertEquals(1, throttled, "the flood after it leaves one record");

        // When the window closes, one summary counts every request turned away: 20 bad tokens and one without.
        long until = System.currentTimeMillis() + 15_000;
        List<AuditRow> summaries = List.of();
        while (summaries.isEmpty() && System.currentTimeMillis() < until) {
            summaries = AuditRow.list("kind = 'ATTEMPT_SUMMARY' and event_time >= ?", since);
            Thread.onSpinWait();
        }
        assertEquals(1, summaries.size(), "one summary for the window");
        assertEquals(21L, summaries.get(0).eventCount, "exact count, nothing dropped uncounted");
        assertTrue(summaries.get(0).firstTime != null && !summaries.get(0).lastTime.isBefore(summaries.get(0).firstTime));
    }
}
