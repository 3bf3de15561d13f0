package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Past quaestor.http.max-in-flight, MCP requests are turned away at once with 503 / -32005, and admitted again after.
 * With a bound of 1 each subject's cap is 1 too, so the one holding the place meets its own cap (429 / -32004) first;
 * another subject meets the replica's bound.
 */
@QuarkusTest
@TestProfile(AdmissionLimitTest.OneInFlight.class)
class AdmissionLimitTest {

    public static class OneInFlight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Reads of slow:// take the provider's 5 s (inside a time box of 8 s): long enough on a busy machine.
            return Map.of("quaestor.http.max-in-flight", "1", "quaestor.mounts.slow.timeout-ms", "8000");
        }
    }

    private static final String SLOW = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":\"slow://held\"}}";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}";

    @Test
    void requestsBeyondTheBoundAreShedAndLaterOnesAdmitted() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        String other = TestIssuer.tokenFor("bob");
        String otherSession = Rpc.initialize(other, "2025-06-18");
        // One slow read holds the only place (retried if a ping held it, or alice's own place, at the moment it arrived).
        var held = CompletableFuture.runAsync(() -> {
            int status;
            do {
                status = Rpc.call(token, session, SLOW).extract().statusCode();
            } while (status == 503 || status == 429);
            assertEquals(200, status);
        });
        boolean shed = false;
        boolean capped = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(shed && capped) && System.nanoTime() < deadline && !held.isDone()) {
            var r = Rpc.call(other, otherSession, PING).extract();
            if (r.statusCode() == 503) {
                assertEquals(-32005, (int) r.path("error.code"));
                assertEquals("1", r.header("Retry-After"));
                shed = true;
                var own = Rpc.call(token, session, PING).extract();
                if (own.statusCode() == 429) {
                    assertEquals(-32004, (int) own.path("error.code"));
                    assertEquals("1", own.header("Retry-After"));
                    capped = true;
                }
            } else {
                assertEquals(200, r.statusCode(), r.asString());
                Thread.sleep(20);
            }
        }
        assertTrue(capped, "the subject holding the place was not refused at its own cap");
        assertTrue(shed, "no request was turned away while one was in flight");
        held.get(30, TimeUnit.SECONDS);
        // The held one ended, so its place is free again.
        Rpc.call(token, session, PING).statusCode(200).body("result", equalTo(Map.of()));
    }
}
