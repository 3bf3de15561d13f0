package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.OversizedPost;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
 * {@code DENY} record under the answer's {@code X-Request-Id}, on both protocol generations. So does a 2025 POST refused
 * before it is served: no session named, a session unknown to its subject, a refused {@code MCP-Protocol-Version}
 * header, an {@code initialize} that cannot open a session or comes inside one, params that are not an object. So does
 * a body over the size limit, declared or grown past it (413, the connection closed, the body never quoted). What
 * such refusals cost in rate-limit tokens is {@link RefusalCostTest}'s.
 */
@QuarkusTest
class DoorRefusalTest {

    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";
    /** {@code quarkus.http.limits.max-body-size}. */
    private static final long BODY_LIMIT = 1024 * 1024;

    @TestHTTPResource("/mcp")
    URI mcp;

    private static String token(String subject) {
        return TestIssuer.sign(TestIssuer.claims(subject));
    }

    /** The one record of a refused request: its answer's X-Request-Id names it. */
    private static AuditRow recordOf(ExtractableResponse<Response> answer) {
        return recordOf(answer.header("X-Request-Id"));
    }

    private static AuditRow recordOf(String rid) {
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

    private static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\""
            + HANDBOOK + "\"}}";

    @Test
    void aPostNamingNoSessionIsOnRecord() {
        String token = token("door-nosession");
        var answer = Rpc.as(token).body(READ).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600))
                .body("error.message", equalTo("Missing Mcp-Session-Id header; call initialize first")).body("id", equalTo(7))
                .extract();
        AuditRow r = recordOf(answer);
        assertEquals(answer.path("error.data.requestId"), r.requestId);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-nosession", r.subject);
        assertEquals("Missing Mcp-Session-Id header; call initialize first", r.detail);
        assertEquals("resources/read", r.method);
        assertEquals(HANDBOOK, r.uri);
        assertNull(r.sessionId);
    }

    @Test
    void aPostNamingASessionItsSubjectHasNotIsOnRecordUnderTheIdItNamed() {
        String token = token("door-unknown");
        String forged = "forgotten-" + "x".repeat(200);
        var unknown = Rpc.call(token, forged, READ).statusCode(404).body(equalTo("")).extract();
        AuditRow r = recordOf(unknown);
        assertEquals("session-unknown", r.outcome);
        assertNull(r.errorCode, "a bare 404 sends no JSON-RPC code");
        assertEquals("door-unknown", r.subject);
        assertEquals(forged.substring(0, 128), r.sessionId, "the id it named, cut to the column");
        assertEquals("resources/read", r.method);
        assertEquals(HANDBOOK, r.uri);
        assertEquals("no live session of this subject by that id", r.detail);

        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.as(token).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(204);
        r = recordOf(Rpc.call(token, session, READ).statusCode(404).extract());
        assertEquals("session-unknown", r.outcome);
        assertEquals(session, r.sessionId, "an ended session is named on record");

        String others = Rpc.initialize(token("door-unknown-owner"), "2025-06-18");
        r = recordOf(Rpc.call(token, others, READ).statusCode(404).extract());
        assertEquals("door-unknown", r.subject, "on record under the caller, not the session's owner");
        assertEquals(others, r.sessionId);
    }

    /**
     * A GET (the session's event stream) or DELETE (its end) naming no session, another subject's session, or with a
     * protocol version no session speaks, is refused as before and on record under the answer's X-Request-Id: one
     * subject probing another's session ids leaves a trace of each probe. Before, none of them was recorded.
     */
    @Test
    void aGetOrDeleteRefusedBeforeItsSessionIsOnRecord() {
        String owner = token("door-owner");
        String session = Rpc.initialize(owner, "2025-06-18");
        String prober = token("door-prober");

        var stream = io.restassured.RestAssured.given().header("Authorization", "Bearer " + prober)
                .header("Mcp-Session-Id", session).header("Accept", "text/event-stream").get("/mcp")
                .then().statusCode(404).extract();
        AuditRow r = recordOf(stream);
        assertEquals("session-unknown", r.outcome);
        assertEquals("GET /mcp", r.method);
        assertEquals("door-prober", r.subject);
        assertEquals(session, r.sessionId, "recorded under the session id it named");

        var end = io.restassured.RestAssured.given().header("Authorization", "Bearer " + prober)
                .header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(404).extract();
        r = recordOf(end);
        assertEquals("session-unknown", r.outcome);
        assertEquals("DELETE /mcp", r.method);

        var none = io.restassured.RestAssured.given().header("Authorization", "Bearer " + prober).delete("/mcp")
                .then().statusCode(400).extract();
        assertEquals("invalid-request", recordOf(none).outcome);
        var noneGet = io.restassured.RestAssured.given().header("Authorization", "Bearer " + prober)
                .header("Accept", "text/event-stream").get("/mcp").then().statusCode(400).extract();
        assertEquals("invalid-request", recordOf(noneGet).outcome);

        var version = io.restassured.RestAssured.given().header("Authorization", "Bearer " + owner)
                .header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "1999-01-01")
                .header("Accept", "text/event-stream").get("/mcp").then().statusCode(400).extract();
        AuditRow v = recordOf(version);
        assertEquals("unsupported-version", v.outcome);
        assertEquals("door-owner", v.subject);

        // The owner's own session is untouched: it still ends, once.
        io.restassured.RestAssured.given().header("Authorization", "Bearer " + owner).header("Mcp-Session-Id", session)
                .delete("/mcp").then().statusCode(204);
    }

    @Test
    void aRefusedProtocolVersionHeaderOnASessionIsOnRecord() {
        String token = token("door-version");
        String session = Rpc.initialize(token, "2025-06-18");
        var answer = Rpc.as(token).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "1999-01-01").body(READ)
                .post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600))
                .body("error.message", equalTo("Unsupported MCP-Protocol-Version: 1999-01-01")).body("id", equalTo(7)).extract();
        AuditRow r = recordOf(answer);
        assertEquals("unsupported-version", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-version", r.subject);
        assertEquals("Unsupported MCP-Protocol-Version: 1999-01-01", r.detail);
        assertEquals(session, r.sessionId);
        assertEquals("resources/read", r.method);
    }

    @Test
    void anInitializeThatCannotOpenASessionIsOnRecord() {
        String token = token("door-init");
        var noId = Rpc.as(token).body("{\"jsonrpc\":\"2.0\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\"}}")
                .post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600))
                .body("error.message", equalTo("initialize must be a request with an id")).body("id", nullValue()).extract();
        AuditRow r = recordOf(noId);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-init", r.subject);
        assertEquals("initialize", r.method);
        assertEquals("initialize must be a request with an id", r.detail);
        assertNull(r.sessionId);

        for (String params : new String[] {"{}", "\"2025-06-18\""}) {
            var noVersion = Rpc.as(token).body("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"initialize\",\"params\":" + params + "}")
                    .post("/mcp").then().statusCode(200).body("error.code", equalTo(-32602))
                    .body("error.message", equalTo("initialize needs params.protocolVersion")).body("id", equalTo(4)).extract();
            r = recordOf(noVersion);
            assertEquals("invalid-params", r.outcome, params);
            assertEquals(-32602, r.errorCode);
            assertEquals("door-init", r.subject);
            assertEquals("initialize", r.method);
            assertEquals("initialize needs params.protocolVersion", r.detail);
        }
        // A version that is not a string, or is empty, names no revision: refused, not negotiated down to one.
        for (String version : new String[] {"42", "\"\"", "{}"}) {
            var notNamed = Rpc.as(token).body("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\",\"params\":"
                    + "{\"protocolVersion\":" + version + "}}").post("/mcp").then().statusCode(200)
                    .body("error.code", equalTo(-32602)).header("Mcp-Session-Id", nullValue()).extract();
            r = recordOf(notNamed);
            assertEquals("invalid-params", r.outcome, version);
            assertEquals("initialize needs params.protocolVersion to be a string naming a revision, such as 2025-06-18",
                    r.detail);
        }
    }

    @Test
    void refusalsInsideASessionBeforeServingAreOnRecord() {
        String token = token("door-insession");
        // Alone, an initialize opens a session whatever Mcp-Session-Id says; only a batch carries one into a session.
        String batches = Rpc.initialize(token, "2025-03-26");
        var again = Rpc.call(token, batches, "[" + Rpc.init("2025-03-26") + "]").statusCode(200)
                .body("[0].error.code", equalTo(-32600)).body("[0].error.message", equalTo("Session is already initialized"))
                .body("[0].id", equalTo(1)).extract();
        AuditRow r = recordOf(again);
        assertEquals("invalid-request", r.outcome);
        assertEquals(-32600, r.errorCode);
        assertEquals("door-insession", r.subject);
        assertEquals("initialize", r.method);
        assertEquals("Session is already initialized", r.detail);
        assertEquals(batches, r.sessionId);

        String session = Rpc.initialize(token, "2025-06-18");
        var params = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\",\"params\":[1]}")
                .statusCode(200).body("error.code", equalTo(-32602)).body("error.message", equalTo("params must be an object"))
                .body("id", equalTo(3)).extract();
        r = recordOf(params);
        assertEquals("invalid-params", r.outcome);
        assertEquals(-32602, r.errorCode);
        assertEquals("door-insession", r.subject);
        assertEquals("resources/list", r.method);
        assertEquals("params must be an object", r.detail);
        assertEquals(session, r.sessionId);
    }

    /**
     * Params of a served method that cannot be read (a uri that is not a string, a cursor that is not one, a completion
     * without its argument or of a prompt) are refused at the door on both generations, on record under the answer's
     * request id: before, they were answered with no record and no token spent, and a 2025 answer named a request id
     * no record had.
     */
    @Test
    void paramsThatCannotBeReadAreOnRecordOnBothGenerations() {
        String token = token("door-params");
        String session = Rpc.initialize(token, "2025-06-18");
        String template = "{\"type\":\"ref/resource\",\"uri\":\"file:///docs/{+path}\"}";
        String[][] old = {
                {"resources/read", "{\"uri\":123}", "params.uri must be a string"},
                {"resources/list", "{\"cursor\":5}", "Invalid cursor"},
                {"completion/complete", "{\"ref\":" + template + ",\"argument\":{\"name\":\"path\",\"value\":null}}",
                        "params need ref and argument {name, value}"},
                {"completion/complete", "{\"ref\":{\"type\":\"ref/prompt\",\"name\":\"x\"},\"argument\":{\"name\":\"p\",\"value\":\"\"}}",
                        "Only ref/resource with a uri template can be completed"},
                {"resources/subscribe", "{\"uri\":{\"x\":1}}", "params.uri must be a string"},
                {"resources/unsubscribe", "{}", "params.uri must be a string"}};
        for (String[] c : old) {
            var answer = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + c[0] + "\",\"params\":" + c[1] + "}")
                    .statusCode(200).body("error.code", equalTo(-32602)).body("error.message", equalTo(c[2])).body("id", equalTo(7))
                    .extract();
            AuditRow r = recordOf(answer);
            assertEquals(answer.path("error.data.requestId"), r.requestId, c[0] + ": the answer's requestId is its record's");
            assertEquals("invalid-params", r.outcome, c[0]);
            assertEquals(-32602, r.errorCode);
            assertEquals(c[0], r.method);
            assertEquals(c[2], r.detail);
            assertEquals(session, r.sessionId);
        }
        String[][] modern = {
                {"resources/list", "\"cursor\":5", "Invalid cursor"},
                {"completion/complete", "\"ref\":" + template, "params need ref and argument {name, value}"},
                {"subscriptions/listen", "\"notifications\":{\"resourcesListChanged\":\"yes\"}",
                        "notifications.resourcesListChanged must be a boolean"}};
        for (String[] c : modern) {
            var answer = Modern.call(token, 8, c[0], c[1]).statusCode(200).body("error.code", equalTo(-32602))
                    .body("error.message", equalTo(c[2])).extract();
            AuditRow r = recordOf(answer);
            assertEquals("invalid-params", r.outcome, c[0]);
            assertEquals(c[0], r.method);
            assertEquals(c[2], r.detail);
        }
        // A uri that is a string but no URI: refused before the policy is asked, and on record as such, not as a denial.
        var notUri = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"resources/read\",\"params\":{\"uri\":\"=1+2\"}}")
                .statusCode(200).body("error.code", equalTo(-32602)).extract();
        AuditRow invalid = recordOf(notUri);
        assertEquals("invalid-uri", invalid.outcome);
        assertEquals("=1+2", invalid.uri);
        assertNull(invalid.rules);
        assertNotNull(invalid.detail, "why it is no URI");
        var read = Modern.as(token, "resources/read").header("Mcp-Name", "123").body(Modern.body(9, "resources/read", "\"uri\":123"))
                .post("/mcp").then().statusCode(200).body("error.code", equalTo(-32602))
                .body("error.message", equalTo("params.uri must be a string")).extract();
        assertEquals("invalid-params", recordOf(read).outcome);
    }

    /** A POST whose body is sent without a declared length (chunked, HTTP/1.1) or over h2c. */
    private HttpResponse<String> post(HttpClient http, String token, byte[] body) throws Exception {
        var request = HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBodyOverTheSizeLimitIsOnRecordWhetherDeclaredOrGrownPastIt() throws Exception {
        String token = token("door-oversized");

        // Declared: refused from the headers alone, none of the body sent or read.
        var declared = OversizedPost.send(mcp, token, 20_000_000);
        assertEquals(413, declared.status(), declared.raw());
        assertEquals("Request body too large\n", declared.body());
        assertTrue(declared.closes(), declared.raw());
        AuditRow r = recordOf(declared.requestId());
        assertEquals("too-large", r.outcome);
        assertNull(r.errorCode, "a bare 413 sends no JSON-RPC code");
        assertEquals("door-oversized", r.subject);
        assertEquals("declared 20000000 bytes, over the limit of " + BODY_LIMIT + " bytes", r.detail);
        assertNull(r.method);
        assertNull(r.uri);

        // Chunked: refused once it grows past the limit; the record gives sizes, never the body's bytes.
        byte[] big = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "q".repeat(2 * 1024 * 1024)
                + "\"}}").getBytes(StandardCharsets.UTF_8);
        var chunked = post(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), token, big);
        assertEquals(413, chunked.statusCode());
        assertEquals("Request body too large\n", chunked.body());
        r = recordOf(chunked.headers().firstValue("X-Request-Id").orElse(null));
        assertEquals("too-large", r.outcome);
        assertEquals("door-oversized", r.subject);
        assertTrue(r.detail.startsWith("grew past the limit of " + BODY_LIMIT + " bytes while read: "), r.detail);
        assertTrue(!r.detail.contains("qqq") && !r.detail.contains("jsonrpc"), r.detail);

        // Over HTTP/2 the worker reads the body: the same refusal, the same record.
        var h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        assertEquals(HttpClient.Version.HTTP_2,
                post(h2, token, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8)).version());
        var overH2 = post(h2, token, big);
        assertEquals(HttpClient.Version.HTTP_2, overH2.version());
        assertEquals(413, overH2.statusCode());
        r = recordOf(overH2.headers().firstValue("X-Request-Id").orElse(null));
        assertEquals("too-large", r.outcome);
        assertEquals("door-oversized", r.subject);
        assertTrue(r.detail.startsWith("grew past the limit of " + BODY_LIMIT + " bytes while read: "), r.detail);

        // Without a valid token the size is never looked at: 401, as any unauthenticated request.
        assertEquals(401, OversizedPost.send(mcp, "not-a-token", 20_000_000).status());
    }

    /**
     * A correctly signed token that names no subject, with a body over the limit: refused as that token is on any request
     * (401 invalid_token, on record as AUTHENTICATION invalid-token under the answer's X-Request-Id), not a bare 413.
     */
    @Test
    void aTokenWithoutSubjectAndABodyOverTheLimitIsRefusedAsThatTokenIsAnywhere() throws Exception {
        String nameless = TestIssuer.sign(TestIssuer.claims("door-nameless").remove("sub"));
        var declared = OversizedPost.send(mcp, nameless, 20_000_000);
        assertEquals(401, declared.status(), declared.raw());
        assertTrue(declared.raw().contains("error=\"invalid_token\""), declared.raw());
        assertInvalidToken(declared.requestId());

        byte[] big = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "q".repeat(2 * 1024 * 1024)
                + "\"}}").getBytes(StandardCharsets.UTF_8);
        for (var version : new HttpClient.Version[] {HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2}) {
            var grown = post(HttpClient.newBuilder().version(version).build(), nameless, big);
            assertEquals(401, grown.statusCode(), version + ": " + grown.body());
            assertTrue(grown.headers().firstValue("WWW-Authenticate").orElse("").contains("error=\"invalid_token\""),
                    version + ": " + grown.headers());
            assertInvalidToken(grown.headers().firstValue("X-Request-Id").orElse(null));
        }
    }

    /** The request's one record is the refusal of its token, as for any request with that token. */
    private static void assertInvalidToken(String rid) {
        assertNotNull(rid, "the refusal names its record");
        var rows = AuditRow.list("request_id = ?", rid);
        assertEquals(1, rows.size(), "one record for request " + rid);
        assertEquals("AUTHENTICATION", rows.get(0).kind);
        assertEquals("DENY", rows.get(0).decision);
        assertEquals("invalid-token", rows.get(0).outcome);
        assertNull(rows.get(0).subject);
    }
}
