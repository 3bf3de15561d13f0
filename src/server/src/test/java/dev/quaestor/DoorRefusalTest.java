package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A POST refused at the door, before it could be read as a request (a body that is not one JSON value, one that is not
 * a JSON-RPC 2.0 request, a batch of the wrong shape), is answered as before and leaves one {@code DECISION}
 * {@code DENY} record under the answer's {@code X-Request-Id}, on both protocol generations. What such refusals cost
 * in rate-limit tokens is {@link RefusalCostTest}'s.
 */
@QuarkusTest
class DoorRefusalTest {

    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";

    private static String token(String subject) {
        return TestIssuer.sign(TestIssuer.claims(subject));
    }

    /** The one record of a refused request: its answer's X-Request-Id names it. */
    private static AuditRow recordOf(ExtractableResponse<Response> answer) {
        String rid = answer.header("X-Request-Id");
        assertNotNull(rid, "every answer names its request");
        var rows = AuditRow.list("request_id = ?", rid);
        assertEquals(1, rows.size(), "one record for request " + rid);
        AuditRow r = rows.get(0);
        assertEquals("DECISION", r.kind);
        assertEquals("DENY", r.decision);
        return r;
    }

    @Test
    void aBodyThatIsNotOneJsonValueIsOnRecordOnBothGenerations() {
        String token = token("door-parse");
        String session = Rpc.initialize(token, "2025-06-18");

        var old = Rpc.call(token, session, "{\"jsonrpc\":").statusCode(400).body("error.code", equalTo(-32700))
                .body("error.message", equalTo("Parse error")).body("id", nullValue()).extract();
        AuditRow r = recordOf(old);
        assertEquals(old.path("error.data.requestId"), r.requestId, "the answer's requestId is its record's");
        assertEquals("parse-error", r.outcome);
        assertEquals(-32700, r.errorCode);
        assertEquals("door-parse", r.subject);
        assertEquals("not exactly one JSON value", r.detail);
        assertNull(r.method);
        assertNull(r.uri);

        var modern = Modern.as(token, "resources/read").header("Mcp-Name", HANDBOOK)
                .body(Modern.body(1, "resources/read", "\"uri\":\"" + HANDBOOK + "\"").getBytes(StandardCharsets.UTF_16LE))
                .post("/mcp").then().statusCode(400).body("error.code", equalTo(-32700)).body("error.message", equalTo("Parse error"))
                .extract();
        r = recordOf(modern);
        assertEquals("parse-error", r.outcome);
        assertEquals(-32700, r.errorCode);
        assertEquals("door-parse", r.subject);
        assertTrue(r.detail.startsWith("not well-formed UTF-8"), r.detail);
        assertNull(r.method, "nothing of the body is on record");
        assertNull(r.uri);

        // Sent to the listen door by its Mcp-Method header: the same refusal, the same record.
        var listen = Modern.as(token, "subscriptions/listen").body("{\"jsonrpc\":\"2.0\"} {}").post("/mcp").then()
                .statusCode(400).body("error.code", equalTo(-32700)).extract();
        r = recordOf(listen);
        assertEquals("parse-error", r.outcome);
        assertEquals("not exactly one JSON value", r.detail);

        var charset = Modern.as(token, "resources/read").header("Mcp-Name", HANDBOOK).contentType("application/json; charset=utf-16")
                .body(Modern.body(2, "resources/read", "\"uri\":\"" + HANDBOOK + "\"")).post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32700)).extract();
        assertEquals("Content-Type charset other than UTF-8", recordOf(charset).detail);
    }

    @Test
    void aMessageThatIsNotAJsonRpcRequestIsOnRecordOnBothGenerations() {
        String token = token("door-invalid");
        String session = Rpc.initialize(token, "2025-06-18");
        String read = "{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + HANDBOOK + "\"}}";

        // A 2025 session answers a message it cannot read in band, as before.
        var old = Rpc.call(token, session, read).statusCode(200).body("error.code", equalTo(-32600)).body("id", equalTo(7))
                .extract();
        AuditRow r = recordOf(old);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-invalid", r.subject);
        assertEquals("resources/read", r.method, "what the body named, as far as it can be read");
        assertEquals(HANDBOOK, r.uri);
        assertEquals("Invalid JSON-RPC 2.0 message", r.detail);
        assertNotNull(r.sessionId, "a message of a session is recorded in it");

        var modern = Modern.as(token, "resources/read").header("Mcp-Name", HANDBOOK)
                .body(Modern.body(8, "resources/read", "\"uri\":\"" + HANDBOOK + "\"").replace("\"2.0\"", "\"1.0\"")).post("/mcp")
                .then().statusCode(400).body("error.code", equalTo(-32600)).body("id", equalTo(8)).extract();
        r = recordOf(modern);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-invalid", r.subject);
        assertEquals("resources/read", r.method);
        assertEquals(HANDBOOK, r.uri);
        assertEquals("Invalid JSON-RPC 2.0 message", r.detail);
        assertNull(r.protocol, "no revision could be read from it");
    }

    @Test
    void batchesOfAShapeTheRevisionRefusesAreOnRecord() {
        String token = token("door-batch");
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

        var empty = Rpc.call(token, Rpc.initialize(token, "2025-03-26"), "[]").statusCode(400)
                .body("error.code", equalTo(-32600)).body("error.message", equalTo("Empty batch")).extract();
        AuditRow r = recordOf(empty);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-batch", r.subject);
        assertEquals("Empty batch", r.detail);

        var removed = Rpc.call(token, Rpc.initialize(token, "2025-06-18"), "[" + ping + "]").statusCode(400)
                .body("error.code", equalTo(-32600)).extract();
        r = recordOf(removed);
        assertEquals("invalid-request", r.outcome);
        assertTrue(r.detail.startsWith("JSON-RPC batches are not supported on 2025-06-18"), r.detail);

        var mixed = Rpc.as(token).body("[" + ping + "," + Modern.body(2, "server/discover", "") + "]").post("/mcp").then()
                .statusCode(400).body("error.code", equalTo(-32600)).extract();
        r = recordOf(mixed);
        assertEquals("invalid-request", r.outcome);
        assertEquals("door-batch", r.subject);
        assertTrue(r.detail.startsWith("A JSON-RPC batch cannot carry 2026-07-28 requests"), r.detail);
    }
}
