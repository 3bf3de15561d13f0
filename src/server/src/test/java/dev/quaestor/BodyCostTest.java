package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A large body pays for its size before it is parsed: past the subject's budget of body bytes (2 MiB, refilled at
 * 256 KiB a second) a body over 16 KiB is refused with 429 / -32004 without being parsed, on record, while the same
 * subject's small requests and another subject's requests are served. A body is read, charged and parsed once,
 * whichever door of the endpoint it arrives at.
 */
@QuarkusTest
class BodyCostTest {

    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";

    @Test
    void largeBodiesPayForTheirSizeBeforeTheyAreParsedAndOthersAreStillServed() {
        String mallory = TestIssuer.sign(TestIssuer.claims("mallory-bytes"));
        String bob = TestIssuer.tokenFor("bob");
        String bobSession = Rpc.initialize(bob, "2025-06-18");
        String malloriesSession = Rpc.initialize(mallory, "2025-06-18");
        // Not JSON at all: parsed, it is a parse error (400, -32700); refused for its size, it was never parsed.
        String big = "x".repeat(900_000);
        int parsed = 0;
        int refused = 0;
        long start = System.nanoTime();
        // Eight bodies, and more while none is refused (a machine slow enough lets the refill pay for all eight).
        for (int i = 0; i < 8 || refused == 0 && i < 24; i++) {
            var r = Rpc.as(mallory).body(big).post("/mcp").then().extract();
            if (r.statusCode() == 429) {
                refused++;
                assertEquals(-32004, r.jsonPath().getInt("error.code"), r.asString());
                assertTrue(r.header("Retry-After") != null, "a refusal for size says when to retry");
            } else {
                parsed++;
                assertEquals(400, r.statusCode(), r.asString());
            }
        }
        // The budget holds two bodies and a little; while they are sent it refills at 256 KiB a second, which on a slow
        // machine pays for more of them: the bound counts what the refill paid for in the time they took.
        double seconds = (System.nanoTime() - start) / 1e9;
        int refilled = (int) (seconds * 256 * 1024 / 900_000);
        assertTrue(parsed <= 3 + refilled, parsed + " bodies of 900,000 bytes were parsed in " + seconds + " s; the budget holds "
                + "two and a little, and refilled " + refilled + " more");
        assertTrue(refused >= 1, refused + " refused");
        // Small bodies cost nothing: the same subject, and another, are served at once.
        Rpc.call(mallory, malloriesSession, PING).statusCode(200);
        Rpc.call(bob, bobSession, PING).statusCode(200);
        assertTrue(AuditRow.count("subject = ? AND outcome = 'cap:body-bytes'", "mallory-bytes") >= 1,
                "the refusals are on record");
    }

    @Test
    void aPostAtTheListenDoorThatIsNoListenIsChargedOnceAndRecordedUnderOneRequestId() {
        String token = TestIssuer.sign(TestIssuer.claims("mallory-door"));
        String uri = "file:///docs/readme.md";
        // Its Mcp-Method header sends it to the listen door; its body is a resources/read: a header mismatch, refused on
        // record. Two of them pay 1.8 MB of the 2 MiB budget; charged twice each, the second would be refused for size.
        String pad = "x".repeat(900_000);
        for (int i = 0; i < 2; i++) {
            String body = Modern.body(i, "resources/read", "\"uri\":\"" + uri + "\",\"pad\":\"" + pad + "\"");
            var r = Modern.as(token, "subscriptions/listen").header("Mcp-Name", uri).body(body).post("/mcp").then().extract();
            assertEquals(400, r.statusCode(), r.asString());
            assertEquals(-32020, r.jsonPath().getInt("error.code"), r.asString());
            String requestId = r.header("X-Request-Id");
            List<AuditRow> records = AuditRow.list("subject = ? AND request_id = ?", "mallory-door", requestId);
            assertEquals(1, records.size(), "one record under the request's one id");
            assertEquals("header-mismatch", records.get(0).outcome);
        }
        assertEquals(2, AuditRow.count("subject = ?", "mallory-door"), "nothing else is on record for the two requests");
    }
}
