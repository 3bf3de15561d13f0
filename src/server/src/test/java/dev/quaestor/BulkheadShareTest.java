package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.FailingProviderFactory;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.SlowProviderFactory;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A mount's bulkhead is shared by every subject, so one subject may hold only its share of it
 * ({@code quaestor.mounts.<name>.subject-share}): an abuser who keeps slow reads open meets its share (429 / -32004,
 * outcome {@code subject-share}, on record) while a legitimate subject beside it is still served by the same mount.
 */
@QuarkusTest
@TestProfile(BulkheadShareTest.SmallBulkheads.class)
class BulkheadShareTest {

    public static class SmallBulkheads implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(
                    // slow://: 4 calls in flight, a subject may hold 2 of them; each read takes 6 s (time box 12 s).
                    Map.entry("quaestor.mounts.slow.bulkhead", "4"),
                    Map.entry("quaestor.mounts.slow.subject-share", "0.5"),
                    Map.entry("quaestor.mounts.slow.options.delay-ms", "6000"),
                    Map.entry("quaestor.mounts.slow.timeout-ms", "12000"),
                    // narrow://: a subject may hold 1 of 2 calls, and every read outlives its time box of 300 ms.
                    Map.entry("quaestor.mounts.narrow.bulkhead", "2"),
                    Map.entry("quaestor.mounts.narrow.subject-share", "0.5"),
                    Map.entry("quaestor.mounts.narrow.timeout-ms", "300"),
                    // flaky://: a subject may hold 1 of 2 calls, and every read fails.
                    Map.entry("quaestor.mounts.flaky.bulkhead", "2"),
                    Map.entry("quaestor.mounts.flaky.subject-share", "0.5"));
        }
    }

    /** Threads of the test's own for the calls it keeps waiting (the common pool may have a single thread). */
    private static final ExecutorService WAITERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "bulkhead-share-test");
        t.setDaemon(true);
        return t;
    });

    private static String token(String subject) {
        return TestIssuer.sign(TestIssuer.claims(subject));
    }

    private static String read(String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    private static AuditRow outcome(String requestId) {
        return AuditRow.first("request_id = ? AND kind = 'OUTCOME'", requestId);
    }

    @Test
    void anAbuserHoldsOnlyItsShareOfAMountsBulkheadWhileAnotherSubjectIsServed() throws Exception {
        String mallory = token("mallory-share");
        String carol = token("carol-share");
        String mallorySession = Rpc.initialize(mallory, "2025-06-18");
        String carolSession = Rpc.initialize(carol, "2025-06-18");
        int started = SlowProviderFactory.READS_STARTED.get();

        // Mallory opens as many slow reads as the whole bulkhead holds.
        var mallorys = new ArrayList<CompletableFuture<ExtractableResponse<Response>>>();
        for (int i = 0; i < 4; i++) {
            String uri = "slow://held-" + i;
            mallorys.add(CompletableFuture.supplyAsync(() -> Rpc.call(mallory, mallorySession, read(uri)).extract(), WAITERS));
        }
        // Until mallory holds all it can: its share (2 reads under way, 2 refused), or, were there no share, everything.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> {
            int begun = SlowProviderFactory.READS_STARTED.get() - started;
            return begun >= 4 || begun >= 2 && mallorys.stream().filter(CompletableFuture::isDone).count() >= 2;
        });

        // Carol reads the same mount meanwhile, and is served.
        var carols = CompletableFuture.supplyAsync(() -> Rpc.call(carol, carolSession, read("slow://carol")).extract(), WAITERS);
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> carols.isDone() || SlowProviderFactory.READS_STARTED.get() - started >= 3);
        long mallorysHeld = mallorys.stream().filter(f -> !f.isDone()).count();
        var served = carols.get(20, TimeUnit.SECONDS);
        assertEquals(200, served.statusCode(), "carol's read was refused beside mallory's: " + served.asString());
        assertEquals("late", served.path("result.contents[0].text"));
        assertEquals(2, mallorysHeld, "carol's read began while mallory held its share");

        // Mallory: two reads served, two refused at its share at once, each on record.
        List<ExtractableResponse<Response>> refused = new ArrayList<>();
        int ok = 0;
        for (var f : mallorys) {
            var r = f.get(20, TimeUnit.SECONDS);
            if (r.statusCode() == 200) {
                ok++;
            } else {
                refused.add(r);
            }
        }
        assertEquals(2, ok, "mallory's share: two reads in flight");
        assertEquals(2, refused.size());
        for (var r : refused) {
            assertEquals(429, r.statusCode(), r.asString());
            assertEquals(-32004, (int) r.path("error.code"));
            assertEquals("1", r.header("Retry-After"));
            assertEquals(1, (int) r.path("error.data.retryAfterSeconds"));
            assertTrue(((String) r.path("error.message")).contains("in flight for this content source"), r.asString());
            String requestId = r.path("error.data.requestId");
            assertNotNull(requestId);
            AuditRow row = outcome(requestId);
            assertNotNull(row, "the refusal is on record under the id it was answered with");
            assertEquals("subject-share", row.outcome);
            assertEquals(-32004, row.errorCode);
            assertEquals("mallory-share", row.subject);
            assertTrue(row.detail.contains("at most 2 calls per subject in flight on mount slow"), row.detail);
            AuditRow decision = AuditRow.first("request_id = ? AND kind = 'DECISION'", requestId);
            assertEquals("ALLOW", decision.decision);
        }
        assertEquals(0, AuditRow.count("subject = ? AND outcome = 'bulkhead-full'", "carol-share"));

        // Its places given back when its reads ended, mallory is served again.
        Rpc.call(mallory, mallorySession, read("slow://again")).statusCode(200);
    }

    @Test
    void aPlaceIsGivenBackWhenTheCallTimesOutOrFails() {
        String dave = token("dave-share");
        String session = Rpc.initialize(dave, "2025-06-18");
        // narrow://: one place for dave; each read outlives its time box. Were the place kept, the next would be refused.
        for (int i = 0; i < 3; i++) {
            String requestId = Rpc.call(dave, session, read("narrow://timed-" + i)).statusCode(200)
                    .body("error.code", org.hamcrest.Matchers.equalTo(-32001)).extract().path("error.data.requestId");
            assertEquals("timeout", outcome(requestId).outcome);
        }
        // flaky://: one place for dave; each read fails (then the breaker opens). Never refused at its share.
        int before = FailingProviderFactory.READS.get();
        for (int i = 0; i < 6; i++) {
            var r = Rpc.call(dave, session, read("flaky://failing-" + i)).extract();
            String requestId = r.path("error.data.requestId");
            assertNotEquals("subject-share", outcome(requestId).outcome, r.asString());
        }
        assertTrue(FailingProviderFactory.READS.get() > before);
        assertFalse(AuditRow.count("subject = ? AND outcome = 'subject-share'", "dave-share") > 0);
    }
}
