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

/** Past quaestor.http.max-in-flight, MCP requests are turned away at once with 503 / -32005, and admitted again after. */
@QuarkusTest
@TestProfile(AdmissionLimitTest.TwoInFlight.class)
class AdmissionLimitTest {

    public static class TwoInFlight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Reads of slow:// hang until the mount's time box cuts them off after 3 s.
            return Map.of("quaestor.http.max-in-flight", "2", "quaestor.mounts.slow.timeout-ms", "3000");
        }
    }

    private static final String SLOW = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":\"slow://held\"}}";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}";

    @Test
    void requestsBeyondTheBoundAreShedAndLaterOnesAdmitted() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        var held = new CompletableFuture<?>[2];
        for (int i = 0; i < held.length; i++) {
            held[i] = CompletableFuture.runAsync(() -> Rpc.call(token, session, SLOW).statusCode(200).body("error.code", equalTo(-32001)));
        }
        // While both are held, a third request is refused at once (allow for the two to arrive first).
        boolean shed = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (!shed && System.nanoTime() < deadline && !(held[0].isDone() && held[1].isDone())) {
            var r = Rpc.call(token, session, PING).extract();
            if (r.statusCode() == 503) {
                assertEquals(-32005, (int) r.path("error.code"));
                assertEquals("1", r.header("Retry-After"));
                shed = true;
            } else {
                assertEquals(200, r.statusCode(), r.asString());
                Thread.sleep(20);
            }
        }
        assertTrue(shed, "no request was turned away while two were in flight");
        CompletableFuture.allOf(held).get(20, TimeUnit.SECONDS);
        // The held ones ended, so their places are free again.
        Rpc.call(token, session, PING).statusCode(200).body("result", equalTo(Map.of()));
    }
}
