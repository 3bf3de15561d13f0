package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
class TransportTest {

    private final String alice = TestIssuer.tokenFor("alice");
    private final String bob = TestIssuer.tokenFor("bob");

    @Test
    void initializeNegotiatesEachSupportedVersion() {
        for (String v : new String[] {"2025-03-26", "2025-06-18", "2025-11-25"}) {
            Rpc.as(alice).body(Rpc.init(v)).post("/mcp").then().statusCode(200)
                    .header("Mcp-Session-Id", notNullValue())
                    .body("result.protocolVersion", equalTo(v))
                    .body("result.capabilities.resources.subscribe", equalTo(true))
                    .body("result.capabilities.resources.listChanged", equalTo(true))
                    .body("result.capabilities.completions", equalTo(java.util.Map.of()))
                    .body("result.capabilities.tools", equalTo(null))
                    .body("result.serverInfo.name", equalTo("quaestor"));
        }
    }

    @Test
    void unknownVersionGetsOurLatest() {
        Rpc.as(alice).body(Rpc.init("2024-01-01")).post("/mcp").then().statusCode(200)
                .body("result.protocolVersion", equalTo("2025-11-25"));
    }

    @Test
    void sessionIsBoundToItsSubject() {
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(200).body("result", equalTo(java.util.Map.of()));
        Rpc.call(bob, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(404);
        Rpc.call(bob, session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/home/alice/notes.md\"}}")
                .statusCode(404).body(emptyOrNullString());
    }

    @Test
    void deletedSessionGets404() {
        String session = Rpc.initialize(alice, "2025-06-18");
        given().header("Authorization", "Bearer " + bob).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(404);
        given().header("Authorization", "Bearer " + alice).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(204);
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(404);
    }

    /**
     * Another replica ends the session: only the shared row changes. This replica, which served the
     * session a moment ago, goes on trusting its cached view for at most the cache TTL (5 s in
     * tests); requests in the meantime, which trigger the background re-read, are served, and then
     * the session is refused.
     */
    @Test
    void aSessionEndedOnAnotherReplicaIsRefusedWithinTheCacheTtl() throws Exception {
        String session = Rpc.initialize(alice, "2025-06-18");
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
        Rpc.call(alice, session, ping).statusCode(200);
        long endedAt = System.nanoTime();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var end = c.prepareStatement("UPDATE mcp_session SET ended_at = now() WHERE id = ?")) {
            end.setString(1, session);
            assertEquals(1, end.executeUpdate());
        }
        int status;
        do {
            Thread.sleep(100);
            status = Rpc.call(alice, session, ping).extract().statusCode();
        } while (status == 200 && System.nanoTime() - endedAt < 8_000_000_000L);
        double seconds = (System.nanoTime() - endedAt) / 1e9;
        assertEquals(404, status, "still served " + seconds + " s after another replica ended it");
        assertTrue(seconds <= 5.5, "refused only after " + seconds + " s, past the 5 s cache TTL");
    }

    @Test
    void missingSessionGets400AndUnknownSession404() {
        Rpc.as(alice).body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32600));
        Rpc.call(alice, "no-such-session", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(404);
        given().header("Authorization", "Bearer " + alice).delete("/mcp").then().statusCode(400)
                .header("X-Request-Id", notNullValue())
                .body(equalTo("Missing Mcp-Session-Id header: DELETE /mcp ends the session it names\n"));
    }

    /**
     * The session stream and subscriptions/listen answer only with events: an Accept that allows none gets 406 saying
     * so, with a request id, as every other refusal at the door; not a bare status.
     */
    @Test
    void aStreamAskedForWithoutAcceptingEventsGets406SayingWhatToAccept() {
        given().header("Authorization", "Bearer " + alice).header("Accept", "application/json")
                .header("Mcp-Session-Id", "any").get("/mcp").then().statusCode(406)
                .header("X-Request-Id", notNullValue()).contentType(startsWith("text/plain"))
                .body(containsString("GET /mcp (the session's stream of events) answers only with text/event-stream"));
        given().header("Authorization", "Bearer " + alice).header("Accept", "application/json")
                .header("Content-Type", "application/json").header("MCP-Protocol-Version", "2026-07-28")
                .header("Mcp-Method", "subscriptions/listen").body("{}").post("/mcp").then().statusCode(406)
                .header("X-Request-Id", notNullValue())
                .body(containsString("subscriptions/listen answers only with text/event-stream; Accept must include it"));
    }

    /**
     * A Content-Type is JSON by its type and subtype, not by how it starts, and an Accept range counts with its weight,
     * the most specific deciding. Before, anything starting with application/json was taken as JSON, and a range
     * weighted 0 as a wish.
     */
    @Test
    void mediaTypesAreReadAsTypesNotAsPrefixes() throws Exception {
        for (String type : List.of("application/jsonx", "application/json-seq", "application/json+xml", "application/json/extra")) {
            HttpResponse<String> r = post(type, "application/json, text/event-stream");
            assertEquals(415, r.statusCode(), type + ": " + r.body());
            assertEquals("Content-Type must be application/json\n", r.body(), type);
        }
        assertEquals(200, post("Application/JSON ; charset=UTF-8", "application/json").statusCode());
        for (String accept : List.of("application/json;q=0", "application/jsonx", "text/event-streamx", "*/*;q=0")) {
            assertEquals(406, post("application/json", accept).statusCode(), accept);
        }
        HttpResponse<String> sse = post("application/json", "*/*;q=0.5, application/json;q=0, text/event-stream");
        assertEquals(200, sse.statusCode(), sse.body());
        assertEquals("text/event-stream", sse.headers().firstValue("Content-Type").orElse("").split(";")[0]);
        HttpResponse<String> json = post("application/json", "text/event-stream;q=0.1, application/*");
        assertEquals("application/json", json.headers().firstValue("Content-Type").orElse("").split(";")[0]);
    }

    /** A URI longer than any is refused without echoing all of it: data.uri is cut as the record cuts it. */
    @Test
    void anOverlongUriIsNotEchoedWhole() {
        String session = Rpc.initialize(alice, "2025-06-18");
        String uri = "file:///docs/" + "x".repeat(200_000);
        String answer = Rpc.read(alice, session, uri).extract().asString();
        assertTrue(answer.length() < 10_000, "an answer of " + answer.length() + " characters");
        String echoed = io.restassured.path.json.JsonPath.from(answer).getString("error.data.uri");
        assertEquals(4096, echoed.length(), echoed);
        assertTrue(echoed.startsWith("file:///docs/xxx") && echoed.endsWith("… (cut)"), echoed);
    }

    private HttpResponse<String> post(String contentType, String accept) throws Exception {
        var request = HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + alice).header("Content-Type", contentType)
                .header("Accept", accept).POST(HttpRequest.BodyPublishers.ofString(Rpc.init("2025-06-18"))).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * On a session, MCP-Protocol-Version must name a 2025 revision this server speaks (2025-11-25: "invalid or
     * unsupported" gets 400); another supported one than the negotiated is served under the session's own revision
     * (the conformance suite's server-sse-multiple-streams sends 2025-03-26 on the session it negotiated).
     */
    @Test
    void protocolVersionHeaderIsHonoured() {
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.as(alice).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-06-18")
                .body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").post("/mcp").then().statusCode(200);
        Rpc.as(alice).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "1999-01-01")
                .body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32600));
        Rpc.as(alice).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-03-26")
                .body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").post("/mcp").then().statusCode(200);
        // ...but still not a batch: the session is 2025-06-18, which has none.
        Rpc.as(alice).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-03-26")
                .body("[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32600));
        // The stateless revision's header without its _meta envelope: a malformed 2026-07-28 request.
        Rpc.as(alice).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2026-07-28")
                .body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").post("/mcp").then().statusCode(400)
                .body("error.code", equalTo(-32602)).body("id", equalTo(2));
    }

    /** 2025-06-18 removed JSON-RPC batches: only a 2025-03-26 session may send one. */
    @Test
    void batchesOnlyOn20250326() {
        for (String v : new String[] {"2025-06-18", "2025-11-25"}) {
            String session = Rpc.initialize(alice, v);
            Rpc.call(alice, session, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").statusCode(400)
                    .body("error.code", equalTo(-32600)).body("error.message", containsString("batches"));
        }
        String session = Rpc.initialize(alice, "2025-03-26");
        Rpc.call(alice, session, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").statusCode(200)
                .body("[0].result", equalTo(java.util.Map.of()));
    }

    @Test
    void badOriginOrHostGets403BeforeAuthentication() {
        Rpc.as(alice).header("Origin", "http://evil.example.com").body(Rpc.init("2025-06-18")).post("/mcp").then().statusCode(403);
        Rpc.as(alice).header("Host", "evil.example.com").body(Rpc.init("2025-06-18")).post("/mcp").then().statusCode(403);
        // No token at all: still 403, so a rebinding page cannot even probe authentication.
        given().header("Origin", "http://evil.example.com").contentType("application/json").body(Rpc.init("2025-06-18"))
                .post("/mcp").then().statusCode(403);
        Rpc.as(alice).header("Origin", "http://localhost:6274").body(Rpc.init("2025-06-18")).post("/mcp").then().statusCode(200);
    }

    @Test
    void malformedJsonGets400ParseError() {
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.call(alice, session, "{\"jsonrpc\":").statusCode(400).body("error.code", equalTo(-32700))
                .body("id", equalTo(null)).body("error.data.requestId", notNullValue());
        Rpc.as(alice).body("not json").post("/mcp").then().statusCode(400).body("error.code", equalTo(-32700));
    }

    /**
     * What a body-inspecting gateway could read otherwise than this server (another encoding, a byte order mark, an
     * overlong '/', a second value, a member twice, another declared charset) is -32700 with HTTP 400 on both eras,
     * and nothing is read.
     */
    @Test
    void bodiesThatAreNotExactlyOneJsonValueInUtf8AreRefusedWithParseError() {
        String session = Rpc.initialize(alice, "2025-06-18");
        String read = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";
        String modern = dev.quaestor.support.Modern.body(2, "resources/read", "\"uri\":\"file:///docs/handbook/welcome.md\"");
        for (String body : new String[] {read, modern}) {
            boolean isModern = body == modern;
            var bad = new java.util.LinkedHashMap<String, byte[]>();
            bad.put("UTF-16LE", body.getBytes(java.nio.charset.StandardCharsets.UTF_16LE));
            bad.put("UTF-16 with BOM", body.getBytes(java.nio.charset.StandardCharsets.UTF_16));
            bad.put("UTF-8 with BOM", concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8(body)));
            bad.put("overlong /", overlongSlash(body));
            bad.put("two values", utf8(body + body));
            bad.put("trailing text", utf8(body + " trailing"));
            bad.put("uri twice", utf8(body.replace("\"uri\":\"file:///docs/handbook/welcome.md\"",
                    "\"uri\":\"file:///docs/handbook/welcome.md\",\"uri\":\"file:///docs/home/bob/notes.md\"")));
            for (var e : bad.entrySet()) {
                var spec = isModern ? dev.quaestor.support.Modern.as(alice, "resources/read").header("Mcp-Name", "file:///docs/handbook/welcome.md")
                        : Rpc.as(alice).header("Mcp-Session-Id", session);
                spec.body(e.getValue()).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32700))
                        .body("error.message", equalTo("Parse error"));
            }
            var declared = isModern ? dev.quaestor.support.Modern.as(alice, "resources/read").header("Mcp-Name", "file:///docs/handbook/welcome.md")
                    : Rpc.as(alice).header("Mcp-Session-Id", session);
            declared.contentType("application/json; charset=utf-16").body(utf8(body)).post("/mcp").then().statusCode(400)
                    .body("error.code", equalTo(-32700));
            // The same body, as sent properly, is read.
            var ok = isModern ? dev.quaestor.support.Modern.as(alice, "resources/read").header("Mcp-Name", "file:///docs/handbook/welcome.md")
                    : Rpc.as(alice).header("Mcp-Session-Id", session);
            ok.body(utf8(body)).post("/mcp").then().statusCode(200).body("result.contents[0].uri", equalTo("file:///docs/handbook/welcome.md"));
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The body with the '/' before welcome.md written as the overlong C0 AF. */
    private static byte[] overlongSlash(String body) {
        int at = body.indexOf("handbook/welcome.md") + "handbook".length();
        return concat(concat(utf8(body.substring(0, at)), new byte[] {(byte) 0xC0, (byte) 0xAF}), utf8(body.substring(at + 1)));
    }

    @Test
    void invalidRequestsAndUnknownMethods() {
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.call(alice, session, "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}").statusCode(200).body("error.code", equalTo(-32600));
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\"}").statusCode(200).body("error.code", equalTo(-32601));
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{}}").statusCode(200)
                .body("error.code", equalTo(-32602));
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":[1]}").statusCode(200)
                .body("error.code", equalTo(-32602));
    }

    @Test
    void notificationsAreAcceptedWith202() {
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode(202).body(emptyOrNullString());
    }

    @Test
    void batchesAreAnsweredInOneArray() {
        String session = Rpc.initialize(alice, "2025-03-26");
        Rpc.call(alice, session, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}]").statusCode(200)
                .body("$", hasSize(2)).body("[0].id", equalTo(1)).body("[1].error.code", equalTo(-32601));
    }

    @Test
    void answersAsSseWhenTheClientAcceptsOnlyThat() {
        String session = Rpc.initialize(alice, "2025-06-18");
        String body = given().header("Authorization", "Bearer " + alice).header("Mcp-Session-Id", session)
                .contentType("application/json").accept("text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}").post("/mcp").then().statusCode(200)
                .contentType(startsWith("text/event-stream")).extract().asString();
        org.junit.jupiter.api.Assertions.assertTrue(body.startsWith("event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}"), body);
    }

    /**
     * A declared length over the limit is refused from the headers alone, and the connection closed.
     * Over a raw socket that sends only the body's first 16 KiB: a client still writing 2 MiB when the
     * server answers and closes may see a broken pipe before it reads the 413, which is the client's
     * race, not the server's behaviour.
     */
    @Test
    void oversizedBodiesAreRefused() throws Exception {
        String session = Rpc.initialize(alice, "2025-06-18");
        int declared = 2 * 1024 * 1024;
        try (var socket = new java.net.Socket(mcp.getHost(), mcp.getPort())) {
            socket.setSoTimeout(10_000);
            String head = "POST /mcp HTTP/1.1\r\nHost: " + mcp.getHost() + ":" + mcp.getPort() + "\r\n"
                    + "Authorization: Bearer " + alice + "\r\nMcp-Session-Id: " + session + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Content-Length: " + declared + "\r\n\r\n";
            var out = socket.getOutputStream();
            out.write(head.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.write(("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(16 * 1024))
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
            // Everything the server sends, up to its close: the rest of the body is never awaited.
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 413"), answer);
            assertTrue(answer.toLowerCase().contains("connection: close"), answer);
        }
        // The server still answers, on a new connection.
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(200);
    }

    @io.quarkus.test.common.http.TestHTTPResource("/mcp")
    java.net.URI mcp;

    /** A body without Content-Length (chunked), in pieces: read whole before the request is handled, and bounded. */
    private java.net.http.HttpResponse<String> postChunked(String token, String session, String body) throws Exception {
        return post(java.net.http.HttpClient.Version.HTTP_1_1, token, session, body);
    }

    private java.net.http.HttpResponse<String> post(java.net.http.HttpClient.Version version, String token, String session,
            String body) throws Exception {
        byte[] bytes = body.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        var request = java.net.http.HttpRequest.newBuilder(mcp).header("Authorization", "Bearer " + token)
                .header("Mcp-Session-Id", session).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(bytes)))
                .build();
        return java.net.http.HttpClient.newBuilder().version(version).build()
                .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void chunkedBodiesAreReadWholeAndBounded() throws Exception {
        String session = Rpc.initialize(alice, "2025-06-18");
        var ok = postChunked(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/home/alice/notes.md\"}}" + " ".repeat(100_000));
        assertEquals(200, ok.statusCode(), ok.body());
        assertTrue(ok.body().contains("\"id\":9") && ok.body().contains("\"contents\""), ok.body());

        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}}";
        var refused = postChunked(alice, session, big);
        assertEquals(413, refused.statusCode());
        // The server still answers on a new connection.
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}").statusCode(200);

        // Without a valid token the body is never read: 401 before anything else.
        var anonymous = postChunked("not-a-token", session, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertEquals(401, anonymous.statusCode());
    }

    /** Over HTTP/2 (h2c, as the JDK client upgrades) the body is read on the worker: same answers, same bound. */
    @Test
    void bodiesOverHttp2AreReadAndBounded() throws Exception {
        String session = Rpc.initialize(alice, "2025-06-18");
        var ok = post(java.net.http.HttpClient.Version.HTTP_2, alice, session, "{\"jsonrpc\":\"2.0\",\"id\":11,"
                + "\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/home/alice/notes.md\"}}");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals(java.net.http.HttpClient.Version.HTTP_2, ok.version());
        assertTrue(ok.body().contains("\"id\":11") && ok.body().contains("\"contents\""), ok.body());
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"pad\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}}";
        assertEquals(413, post(java.net.http.HttpClient.Version.HTTP_2, alice, session, big).statusCode());
    }

    @Test
    void getStreamChecksTheProtocolVersionAndOrigin() {
        String session = Rpc.initialize(alice, "2025-06-18");
        given().header("Authorization", "Bearer " + alice).header("Mcp-Session-Id", session).accept("text/event-stream")
                .header("MCP-Protocol-Version", "1999-01-01").get("/mcp").then().statusCode(400);
        given().header("Authorization", "Bearer " + alice).header("Mcp-Session-Id", session).accept("text/event-stream")
                .header("Origin", "https://evil.example").get("/mcp").then().statusCode(403);
    }
}
