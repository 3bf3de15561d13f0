package dev.quaestor.audit.read;

import dev.quaestor.support.Wait;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The one verify place of a replica is shared fairly: while one auditor runs {@code /audit/verify} in a loop, asking
 * again as soon as each ends, another auditor's verifies are each served, in turn, none refused.
 */
@QuarkusTest
class FairVerifyTest {

    private static final int TRIES = 10;

    @Test
    void anAuditorLoopingVerifyDoesNotKeepAnotherFromBeingServed() throws Exception {
        String looper = TestIssuer.sign(TestIssuer.claims("verify-looper")
                .claim("realm_access", java.util.Map.of("roles", List.of("quaestor-auditor"))));
        String other = TestIssuer.tokenFor("auditor");
        var looping = new AtomicBoolean(true);
        var loops = new AtomicInteger();
        var loop = CompletableFuture.runAsync(() -> {
            while (looping.get()) {
                given().header("Authorization", "Bearer " + looper).get("/audit/verify").then().extract().statusCode();
                loops.incrementAndGet();
            }
        });
        List<Integer> statuses = new ArrayList<>();
        try {
            Wait.until("the looper asked three times", Duration.ofSeconds(120), Duration.ofMillis(10), () -> loops.get() >= 3);
            for (int i = 0; i < TRIES; i++) {
                statuses.add(given().header("Authorization", "Bearer " + other).get("/audit/verify").then().extract().statusCode());
            }
        } finally {
            looping.set(false);
            loop.get();
        }
        assertTrue(loops.get() > TRIES, "the looper kept asking: " + loops.get());
        assertEquals(List.of(200, 200, 200, 200, 200, 200, 200, 200, 200, 200), statuses, "every verify of the other auditor");
    }
}
