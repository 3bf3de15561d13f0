package dev.quaestor.bundle;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Evidence bundles have a bounded share of their own (two at once on a replica, one per person): an officer who asks
 * for bundle after bundle from six threads at once gets one at a time and is answered 429, with {@code Retry-After}
 * and why, for the rest (each refusal on record as {@code busy}); the officer beside them, asking one at a time, gets
 * every bundle they ask for.
 */
@QuarkusTest
class BundleShareTest {

    private static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
            + "\"file:///docs/handbook/welcome.md\"}}";

    @Inject
    AuditLog log;

    private static io.restassured.response.Response ask(String token, String requestId) {
        return given().header("Authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body("{\"requestIds\":[\"" + requestId + "\"]}").post("/audit/bundle");
    }

    @Test
    void anOfficerAskingForBundlesFromSixThreadsCannotStarveAnotherOfficer() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String rid = Rpc.call(alice, session, READ).statusCode(200).extract().header("X-Request-Id");
        assertTrue(log.signCheckpointNow(), "under a signed checkpoint, so the bundle has proofs");
        String abuser = TestIssuer.tokenFor("auditor3");
        String officer = TestIssuer.tokenFor("auditor2");
        Instant start = Instant.now();

        var stop = new AtomicBoolean();
        var made = new AtomicInteger();
        var refusals = new ConcurrentLinkedQueue<io.restassured.response.Response>();
        var unexpected = new ConcurrentLinkedQueue<String>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        var loops = new ArrayList<Future<?>>();
        try {
            for (int t = 0; t < 6; t++) {
                loops.add(pool.submit(() -> {
                    while (!stop.get()) {
                        var r = ask(abuser, rid);
                        if (r.statusCode() == 200) {
                            made.incrementAndGet();
                        } else if (r.statusCode() == 429) {
                            refusals.add(r);
                        } else {
                            unexpected.add(r.statusCode() + " " + r.asString());
                        }
                    }
                }));
            }
            // Beside them, the other officer's bundles, one at a time, each while the six ask.
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                await(() -> refusals.size() > 0 || made.get() > 0);
                var r = ask(officer, rid);
                mine.add(r.statusCode());
                assertEquals("application/zip", r.contentType(), r.asString());
            }
            assertEquals(List.of(200, 200, 200, 200, 200), mine, "the officer beside them got every bundle");
            await(() -> refusals.size() >= 3);
        } finally {
            stop.set(true);
            for (var f : loops) {
                f.get();
            }
            pool.shutdown();
        }
        assertTrue(unexpected.isEmpty(), unexpected.toString());
        assertTrue(made.get() >= 1, "the six threads' officer still gets bundles, one at a time");
        var refused = refusals.peek();
        assertEquals("10", refused.header("Retry-After"));
        String error = refused.jsonPath().getString("error");
        assertTrue(error.contains("1 evidence bundles running or waiting, the most one person runs at once"), error);
        var busy = AuditRow.list("subject = 'auditor3' AND method = 'audit/bundle' AND outcome = 'busy' AND event_time >= ?",
                java.sql.Timestamp.from(start));
        assertEquals(refusals.size(), busy.size(), "each refusal is on record");
        assertEquals(0, AuditRow.list("subject = 'auditor2' AND method = 'audit/bundle' AND outcome = 'busy' AND event_time >= ?",
                java.sql.Timestamp.from(start)).size());
        System.out.printf("abuser (6 threads): %d bundles made, %d refused (429); officer beside them: 5 of 5 made%n", made.get(),
                refusals.size());
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(until)) {
                throw new AssertionError("not within 60 s");
            }
            Thread.sleep(10);
        }
    }
}
