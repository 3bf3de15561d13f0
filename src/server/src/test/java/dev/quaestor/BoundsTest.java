package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The time box around providers and the rate limit from the policy's limits. */
@QuarkusTest
class BoundsTest {

    @Test
    void hangingProviderIsCutOffWithMinus32001() {
        cutOffRead();
    }

    /** A read of a provider that hangs, cut off by its time box: answered -32001, and on record as a timeout. */
    private static void cutOffRead() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        long start = System.nanoTime();
        String requestId = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\",\"params\":{\"uri\":\"slow://anything\"}}")
                .statusCode(200)
                .body("error.code", equalTo(-32001))
                .body("error.data.timeoutMs", equalTo(700))
                .body("error.data.uri", equalTo("slow://anything"))
                .extract().path("error.data.requestId");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 4000, "answered after " + millis + " ms, long before the provider's 5 s");
        var rows = AuditRow.list("request_id = ? order by id", requestId);
        assertEquals(2, rows.size());
        assertEquals("timeout", rows.get(1).outcome);
        assertEquals(-32001, rows.get(1).errorCode);
    }

    /** A time box runs on Quaestor's timer: SmallRye's own timer thread is not running, even once one has cut a read off. */
    @Test
    void timeBoxesRunOnQuaestorsTimer() {
        cutOffRead();
        var names = Thread.getAllStackTraces().keySet().stream().map(Thread::getName).toList();
        assertTrue(names.stream().anyMatch(n -> n.startsWith("quaestor-time-box-timer-")), names.toString());
        assertTrue(names.stream().noneMatch(n -> n.startsWith("SmallRye Fault Tolerance Timer")), names.toString());
    }

    @Test
    void rateLimitRejectsWith429AndRetryAfter() {
        String token = TestIssuer.tokenFor("dave");
        String session = Rpc.initialize(token, "2025-06-18");
        String read = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"test-data://limited\"}}";
        Rpc.call(token, session, read).statusCode(200)
                .header("RateLimit-Policy", equalTo("\"limited-resource\";q=2;w=3600"))
                .header("RateLimit", containsString("r=1"));
        Rpc.call(token, session, read).statusCode(200).header("RateLimit", containsString("r=0"));
        String refused = Rpc.call(token, session, read).statusCode(429)
                .header("Retry-After", Integer::parseInt, lessThan(1801))
                .header("Retry-After", Integer::parseInt, org.hamcrest.Matchers.greaterThan(0))
                .body("error.code", equalTo(-32004))
                .body("error.data.retryAfterSeconds", org.hamcrest.Matchers.greaterThan(0))
                .extract().path("error.data.requestId");
        // A refusal is one record, like a denial: the decision the policy made, and why the limiter refused.
        var rows = AuditRow.list("request_id = ? order by id", refused);
        assertEquals(1, rows.size(), "a rate-limited request leaves exactly one record");
        AuditRow r = rows.get(0);
        assertEquals("DECISION", r.kind);
        assertEquals("ALLOW", r.decision);
        assertEquals("rate-limited", r.outcome);
        assertEquals(-32004, r.errorCode);
        assertEquals("dave", r.subject);
        assertEquals("test-data://limited", r.uri);
        assertTrue(r.detail.startsWith("limit limited-resource"), r.detail);
        // Another subject has its own bucket.
        String other = TestIssuer.tokenFor("carol");
        Rpc.call(other, Rpc.initialize(other, "2025-06-18"), read).statusCode(200);
    }
}
