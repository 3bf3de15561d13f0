package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.FailingProviderFactory;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-mount guards on providers that hang or fail on purpose: a bulkhead of one call
 * (narrow://) and a circuit breaker (flaky://). Outcomes are audited and counted in metrics.
 */
@QuarkusTest
class FaultToleranceTest {

    private static String read(String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    private static String outcomeOf(String requestId) {
        return AuditRow.list(
                "request_id = ? and kind = 'OUTCOME'", requestId).get(0).outcome;
    }

    @Test
    void aFullBulkheadRefusesAtOnceWithMinus32005() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        // The first read occupies the mount's only slot for 1.5 s.
        int started = dev.quaestor.support.SlowProviderFactory.READS_STARTED.get();
        CompletableFuture<ExtractableResponse<Response>> first = CompletableFuture.supplyAsync(
                () -> Rpc.call(token, session, read("narrow://one")).extract());
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(5)).pollInterval(java.time.Duration.ofMillis(10))
                .until(() -> dev.quaestor.support.SlowProviderFactory.READS_STARTED.get() > started);
        long start = System.nanoTime();
        String refused = Rpc.call(token, session, read("narrow://two"))
                .statusCode(503)
                .header("Retry-After", equalTo("5"))
                .body("error.code", equalTo(-32005))
                .body("error.message", containsString("too many requests in flight"))
                .extract().path("error.data.requestId");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 1000, "refused at once, not after waiting for the slot: " + ms + " ms");
        var served = first.get(10, TimeUnit.SECONDS);
        assertEquals(200, served.statusCode());
        assertEquals("late", served.path("result.contents[0].text"));
        assertEquals("bulkhead-full", outcomeOf(refused));

        // With the slot free again the mount serves.
        Rpc.call(token, session, read("narrow://three")).statusCode(200).body("result.contents[0].text", equalTo("late"));
    }

    @Test
    void theCircuitOpensAfterFailuresAndStopsCallingTheProvider() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        int before = FailingProviderFactory.READS.get();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            ids.add(Rpc.call(token, session, read("flaky://item-" + i)).statusCode(200)
                    .body("error.code", equalTo(-32603)).extract().path("error.data.requestId"));
        }
        assertEquals(before + 4, FailingProviderFactory.READS.get());
        String open = Rpc.call(token, session, read("flaky://item-5"))
                .statusCode(503)
                .body("error.code", equalTo(-32005))
                .body("error.message", containsString("content source is failing"))
                .extract().path("error.data.requestId");
        assertEquals(before + 4, FailingProviderFactory.READS.get(), "an open breaker does not call the provider");
        assertEquals("error", outcomeOf(ids.get(0)));
        assertEquals("circuit-open", outcomeOf(open));

        // One failing mount does not take the listing of every other mount down with it: page
        // through everything; the page that reaches flaky:// notes it in its audit record.
        List<String> pages = new ArrayList<>();
        String cursor = null;
        int listed = 0;
        do {
            String params = cursor == null ? "{}" : "{\"cursor\":\"" + cursor + "\"}";
            var page = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/list\",\"params\":" + params + "}")
                    .statusCode(200).extract();
            pages.add(page.header("X-Request-Id"));
            listed += page.<List<?>>path("result.resources").size();
            cursor = page.path("result.nextCursor");
        } while (cursor != null && pages.size() < 200);
        assertTrue(listed > 0);
        List<String> details = pages.stream().map(id -> AuditRow.list(
                "request_id = ? and kind = 'OUTCOME'", id).get(0).detail).filter(d -> d != null).toList();
        assertTrue(details.stream().anyMatch(d -> d.contains("mount flaky left out of the listing: circuit-open")), "" + details);

        String metrics = given().auth().oauth2(TestIssuer.tokenFor("prometheus")).get("/q/metrics").then().statusCode(200).extract().asString();
        assertTrue(metrics.contains("quaestor_provider_calls_seconds_count{mount=\"flaky\",outcome=\"circuit-open\"}"), metrics);
        assertTrue(metrics.contains("quaestor_provider_calls_seconds_count{mount=\"flaky\",outcome=\"error\"}"));
        assertTrue(metrics.contains("quaestor_requests_seconds_count{method=\"resources/read\",outcome=\"circuit-open\"}"));
        assertTrue(metrics.contains("quaestor_policy_decisions_total{action=\"read\",decision=\"ALLOW\"}"));
    }

    @Test
    void aShadowLimitNeverRejectsButEveryWouldBeRejectionIsAudited() {
        String token = TestIssuer.tokenFor("erin");
        String session = Rpc.initialize(token, "2025-06-18");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ids.add(Rpc.call(token, session, read("test-data://shadowed")).statusCode(200)
                    .body("result.contents[0].text", containsString("shadow limit"))
                    .extract().header("X-Request-Id"));
        }
        List<String> details = ids.stream()
                .map(id -> AuditRow.list("request_id = ? and kind = 'OUTCOME'", id).get(0).detail).toList();
        assertEquals(null, details.get(0), "the first read fits the shadow limit's capacity of one");
        assertEquals("shadow limit shadow-trial would reject", details.get(1));
        assertEquals("shadow limit shadow-trial would reject", details.get(2));
    }
}
