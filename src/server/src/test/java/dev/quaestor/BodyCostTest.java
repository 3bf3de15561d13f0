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

    /**
     * A chunked body that grows past the size limit is refused (413) after about 1 MiB was read: those bytes are charged
     * too. Without it, one subject could have the server read 1 MiB per request, whatever its budget; with it, three such
     * bodies leave the subject owing, its next large body is refused for its size (429) and, while it owes, a chunked
     * body is refused once past the free size rather than read on.
     */
    @Test
    void bytesReadOfABodyRefusedForItsSizeAreChargedToo() throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims("mallory-chunks"));
        for (int i = 0; i < 3; i++) {
            assertEquals(413, chunked(token, 1_100_000), "a chunked body past the 1 MiB limit");
        }
        assertEquals(429, chunked(token, 1_100_000), "owing: refused for its size once past the free 16 KiB");
        var r = Rpc.as(token).body("x".repeat(900_000)).post("/mcp").then().extract();
        assertEquals(429, r.statusCode(), "a body that fits, while the subject owes: " + r.asString());
        assertEquals(-32004, r.jsonPath().getInt("error.code"), r.asString());
        assertEquals(2, AuditRow.count("subject = ? AND outcome = 'cap:body-bytes'", "mallory-chunks"), "both refusals on record");
        // Small bodies cost nothing, even owing.
        Rpc.call(token, Rpc.initialize(token, "2025-06-18"), PING).statusCode(200);
    }

    /** POSTs {@code size} bytes to /mcp in 50,000-byte chunks over a plain socket; the answer's status. */
    private static int chunked(String token, int size) throws java.io.IOException {
        String host = java.net.URI.create(io.restassured.RestAssured.baseURI).getHost();
        try (var socket = new java.net.Socket(host, io.restassured.RestAssured.port)) {
            socket.setSoTimeout(30_000);
            var out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: " + host + ":" + io.restassured.RestAssured.port + "\r\nAuthorization: Bearer "
                    + token + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            byte[] chunk = "x".repeat(50_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            try {
                for (int sent = 0; sent < size; sent += chunk.length) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                }
                out.write("0\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                out.flush();
            } catch (java.io.IOException closed) {
                // refused part-way: the answer is already there to read
            }
            String status = new java.io.BufferedReader(new java.io.InputStreamReader(socket.getInputStream(),
                    java.nio.charset.StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
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
