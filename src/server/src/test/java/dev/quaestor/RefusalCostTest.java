package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.BrokenChunkPost;
import dev.quaestor.support.ExtraPolicies;
import dev.quaestor.support.Modern;
import dev.quaestor.support.OversizedPost;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.SseEvents;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every caller pays for what it asks: opening a session spends a token, a refused request spends one as an admitted one
 * does, so an empty bucket
 * gets 429 / -32004 for every request, denied or not; a batch costs one token per element and holds at most
 * {@code quaestor.http.max-batch}; a listen costs one token per URI it names and names at most
 * {@code quaestor.subscriptions.max-listen-uris}, separately from the subscriptions a session may hold.
 */
@QuarkusTest
@TestProfile(RefusalCostTest.SmallBucket.class)
class RefusalCostTest {

    static final int CAPACITY = 10;

    public static class SmallBucket implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.http.max-batch", "8", "quaestor.subscriptions.max-listen-uris", "6",
                    "quaestor.subscriptions.max-per-session", "2");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Policy.class));
        }
    }

    /** The shipped policies plus a bucket of 10 per subject for every request, refilled only after an hour. */
    public static class Policy implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of("quaestor.policies.path", ExtraPolicies.directory("refusal-cost-policies", "small-bucket.yaml", """
                    apiVersion: quaestor/v1
                    kind: Policy
                    metadata: {name: small-bucket}
                    limits:
                      - id: small-bucket
                        key: subject
                        capacity: %d
                        refill: {tokens: %d, period: 1h}
                        resources: ["**"]
                    """.formatted(CAPACITY, CAPACITY)));
        }

        @Override
        public void stop() {
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";
    private static final String DENIED = "file:///docs/home/bob/notes.md";

    @TestHTTPResource("/mcp")
    URI mcp;

    private static String read(Object id, String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    @Test
    void anEmptyBucketRefusesDeniedRequestsWith429AndAllowedOnesToo() {
        String token = TestIssuer.sign(TestIssuer.claims("ivan"));
        String session = Rpc.initialize(token, "2025-06-18");
        Instant since = Instant.now();
        // Opening the session spent one token; a denial spends one, as a read would.
        for (int i = 0; i < CAPACITY - 1; i++) {
            Rpc.call(token, session, read(i, DENIED)).statusCode(200).body("error.code", equalTo(-32003));
        }
        String refused = Rpc.call(token, session, read(99, DENIED)).statusCode(429)
                .header("Retry-After", Integer::parseInt, org.hamcrest.Matchers.greaterThan(0))
                .header("RateLimit-Policy", containsString("\"small-bucket\""))
                .body("error.code", equalTo(-32004)).extract().path("error.data.requestId");
        // Denied or not: the allowed read is refused alike, and so is a request refused for its URI.
        Rpc.call(token, session, read(100, HANDBOOK)).statusCode(429).body("error.code", equalTo(-32004));
        Rpc.call(token, session, read(101, "file:///docs/%2e%2e/etc/passwd")).statusCode(429).body("error.code", equalTo(-32004));
        String badUri = Rpc.call(token, session, read(104, "=1+2")).statusCode(429)
                .body("error.code", equalTo(-32004)).extract().path("error.data.requestId");
        Modern.read(token, 102, DENIED).statusCode(429).body("error.code", equalTo(-32004));
        // A 2026-07-28 read whose Mcp-Name header names another URI than its body: refused at the door, bucket empty.
        String mismatched = Modern.as(token, "resources/read").header("Mcp-Name", HANDBOOK)
                .body(Modern.body(103, "resources/read", "\"uri\":\"" + DENIED + "\"")).post("/mcp").then().statusCode(429)
                .body("error.code", equalTo(-32004)).extract().header("X-Request-Id");

        AuditRow r = AuditRow.first("request_id = ?", refused);
        assertEquals("DECISION", r.kind);
        assertEquals("DENY", r.decision, "the record keeps the verdict the refused request had");
        assertEquals("rate-limited", r.outcome);
        assertEquals(-32004, r.errorCode);
        assertEquals("limit small-bucket", r.detail, "the policy refused it: nothing says otherwise");
        // A listing pays before any of its entries is judged.
        String listing = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":105,\"method\":\"resources/list\"}")
                .statusCode(429).body("error.code", equalTo(-32004)).extract().path("error.data.requestId");
        assertEquals("FILTER", AuditRow.first("request_id = ?", listing).decision);
        assertEquals("limit small-bucket; the policy was not asked", AuditRow.first("request_id = ?", listing).detail);
        // Refused by the limit before the policy was asked: the verdict is no policy's, and the record says so.
        for (String door : List.of(badUri, mismatched)) {
            AuditRow d = AuditRow.first("request_id = ?", door);
            assertEquals("rate-limited", d.outcome, door);
            assertEquals("read", d.action, "it paid for a read");
            assertEquals("limit small-bucket; the policy was not asked", d.detail);
        }
        assertEquals(CAPACITY - 1, AuditRow.count("subject = 'ivan' and outcome = 'refused' and event_time >= ?", since));
    }

    @Test
    void aBatchCostsOneTokenPerElementAndHasAMaximum() {
        String token = TestIssuer.sign(TestIssuer.claims("judy"));
        String session = Rpc.initialize(token, "2025-03-26");
        // Too large: refused as a whole, before any of it is done; the refusal pays one token, as any refused request does.
        var nine = new ArrayList<String>();
        for (int i = 0; i < 9; i++) {
            nine.add(read(i, HANDBOOK));
        }
        Rpc.call(token, session, "[" + String.join(",", nine) + "]").statusCode(400)
                .body("error.code", equalTo(-32600)).body("error.data.maxBatch", equalTo(8));

        var four = List.of(read(1, HANDBOOK), read(2, DENIED), read(3, HANDBOOK), read(4, DENIED));
        List<Map<String, Object>> first = Rpc.call(token, session, "[" + String.join(",", four) + "]").statusCode(200)
                .extract().jsonPath().getList("$");
        assertEquals(4, first.size());
        assertEquals(2, first.stream().filter(a -> a.containsKey("result")).count());
        // Six spent (the session's opening, the refused batch and four), four left: of eight more, four are answered and
        // the last four refused by the limit.
        var eight = new ArrayList<String>();
        for (int i = 0; i < 8; i++) {
            eight.add(read(10 + i, i % 2 == 0 ? HANDBOOK : DENIED));
        }
        List<Map<String, Object>> second = Rpc.call(token, session, "[" + String.join(",", eight) + "]").statusCode(200)
                .extract().jsonPath().getList("$");
        assertEquals(8, second.size());
        int limited = 0;
        for (int i = 0; i < 8; i++) {
            @SuppressWarnings("unchecked")
            var error = (Map<String, Object>) second.get(i).get("error");
            boolean rateLimited = error != null && Integer.valueOf(-32004).equals(error.get("code"));
            assertEquals(i >= 4, rateLimited, "element " + i + ": " + second.get(i));
            limited += rateLimited ? 1 : 0;
        }
        assertEquals(4, limited);
    }

    /**
     * A body that is not one JSON value, or not a JSON-RPC request, or an empty batch, on either generation, spends a
     * token as any refused request does: once the bucket is empty they get 429 / -32004, and so does a read.
     */
    @Test
    void malformedRequestsSpendTokensOnBothGenerations() {
        String token = TestIssuer.sign(TestIssuer.claims("mallet"));
        String notJson = "{\"jsonrpc\":";
        String notJsonRpc = Modern.body(1, "resources/read", "\"uri\":\"" + HANDBOOK + "\"").replace("\"2.0\"", "\"1.0\"");
        for (int i = 0; i < CAPACITY; i++) {
            switch (i % 4) {
                case 0 -> Rpc.as(token).body(notJson).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32700));
                case 1 -> Modern.as(token, "resources/read").body(notJson).post("/mcp").then().statusCode(400)
                        .body("error.code", equalTo(-32700));
                case 2 -> Modern.as(token, "resources/read").body(notJsonRpc).post("/mcp").then().statusCode(400)
                        .body("error.code", equalTo(-32600));
                default -> Rpc.as(token).body("[]").post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600));
            }
        }
        String refused = Rpc.as(token).body(notJson).post("/mcp").then().statusCode(429)
                .header("Retry-After", Integer::parseInt, org.hamcrest.Matchers.greaterThan(0))
                .body("error.code", equalTo(-32004)).extract().header("X-Request-Id");
        Modern.as(token, "resources/read").body(notJsonRpc).post("/mcp").then().statusCode(429).body("error.code", equalTo(-32004));
        Modern.read(token, 2, HANDBOOK).statusCode(429).body("error.code", equalTo(-32004));

        AuditRow r = AuditRow.first("request_id = ?", refused);
        assertEquals("DECISION", r.kind);
        assertEquals("DENY", r.decision);
        assertEquals("rate-limited", r.outcome);
        assertEquals(-32004, r.errorCode);
        assertEquals("mallet", r.subject);
        assertTrue(r.detail.startsWith("limit small-bucket"), r.detail);
    }

    /**
     * A body over the size limit spends a token as any refused request does, answered 413 from its headers alone; once
     * the bucket is empty it gets 429 / -32004 as every request does, and so does a read.
     */
    @Test
    void oversizedBodiesSpendTokens() throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims("mallet-oversized"));
        Instant since = Instant.now();
        for (int i = 0; i < CAPACITY; i++) {
            var answer = OversizedPost.send(mcp, token, 20_000_000);
            assertEquals(413, answer.status(), answer.raw());
        }
        var refused = OversizedPost.send(mcp, token, 20_000_000);
        assertEquals(429, refused.status(), refused.raw());
        assertTrue(refused.raw().contains("\"code\":-32004"), refused.raw());
        assertTrue(refused.closes(), "its body is unread: the connection closes all the same");
        Modern.read(token, 1, HANDBOOK).statusCode(429).body("error.code", equalTo(-32004));

        AuditRow r = AuditRow.first("request_id = ?", refused.requestId());
        assertEquals("DECISION", r.kind);
        assertEquals("rate-limited", r.outcome);
        assertEquals(-32004, r.errorCode);
        assertEquals("mallet-oversized", r.subject);
        assertTrue(r.detail.startsWith("limit small-bucket"), r.detail);
        assertEquals(CAPACITY, AuditRow.count("subject = 'mallet-oversized' and outcome = 'too-large' and event_time >= ?", since));
    }

    /**
     * A body that breaks off is answered 400 before its record (the connection is gone by its commit) and spends a
     * token; with the bucket empty the answer is still that 400, so its record says {@code unreadable}, not charged,
     * and not {@code rate-limited}, which was never answered.
     */
    @Test
    void aBrokenBodyWithItsBucketEmptyIsOnRecordAsItWasAnswered() throws Exception {
        String subject = "mallet-broken-" + System.nanoTime();
        String token = TestIssuer.sign(TestIssuer.claims(subject));
        for (int i = 0; i < CAPACITY; i++) {
            assertEquals(400, BrokenChunkPost.send(mcp, token).status());
            int recorded = i + 1;
            Wait.until("broken body " + recorded + " is on record", java.time.Duration.ofSeconds(10),
                    () -> AuditRow.count("subject = ?", subject) == recorded);
        }
        assertEquals(0, AuditRow.count("subject = ? and detail like '%not charged%'", subject), "each spent its token");
        var last = BrokenChunkPost.send(mcp, token);
        assertEquals(400, last.status(), last.raw());
        assertTrue(last.raw().endsWith("Bad Request: the request body's chunked framing is broken\n"), last.raw());
        Wait.until("the last broken body is on record", java.time.Duration.ofSeconds(10),
                () -> AuditRow.count("request_id = ?", last.requestId()) == 1);
        AuditRow r = AuditRow.first("request_id = ?", last.requestId());
        assertEquals("DENY", r.decision);
        assertEquals("unreadable", r.outcome, "recorded as it was answered");
        assertEquals("chunked framing broken after 5 bytes received; not charged to limit small-bucket: it is spent", r.detail);
        assertEquals(0, AuditRow.count("subject = ? and outcome <> 'unreadable'", subject));
        // The bucket is empty indeed: the next read is refused for it.
        Modern.read(token, 1, HANDBOOK).statusCode(429).body("error.code", equalTo(-32004));
    }

    @Test
    void sessionRefusalsSpendTokens() {
        String token = TestIssuer.sign(TestIssuer.claims("mallory-session"));
        String session = Rpc.initialize(token, "2025-06-18"); // one token
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        for (int i = 1; i < CAPACITY; i++) {
            switch (i % 4) {
                case 0 -> Rpc.as(token).body(ping).post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600));
                case 1 -> Rpc.call(token, "gone", ping).statusCode(404);
                case 2 -> Rpc.as(token).header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "1999-01-01").body(ping)
                        .post("/mcp").then().statusCode(400).body("error.code", equalTo(-32600));
                default -> Rpc.as(token).body("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{}}")
                        .post("/mcp").then().statusCode(200).body("error.code", equalTo(-32602));
            }
        }
        String refused = Rpc.call(token, "gone", ping).statusCode(429).body("error.code", equalTo(-32004))
                .extract().header("X-Request-Id");
        Rpc.read(token, session, HANDBOOK).statusCode(429).body("error.code", equalTo(-32004));
        AuditRow r = AuditRow.first("request_id = ?", refused);
        assertEquals("rate-limited", r.outcome);
        assertEquals("mallory-session", r.subject);
    }

    private HttpResponse<InputStream> listen(String token, Object id, List<String> uris) throws Exception {
        var list = new ArrayList<String>();
        uris.forEach(u -> list.add("\"" + u + "\""));
        String body = Modern.body(id, "subscriptions/listen", "\"notifications\":{\"resourceSubscriptions\":[" + String.join(",", list)
                + "]}");
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(mcp)
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", Modern.VERSION)
                .header("Mcp-Method", "subscriptions/listen").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    private static List<String> handbook(int n) {
        var out = new ArrayList<String>();
        for (int i = 0; i < n; i++) {
            out.add("file:///docs/handbook/page-" + i + ".md");
        }
        return out;
    }

    @Test
    void aListenCostsOneTokenPerUriAndHasItsOwnMaximum() throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims("kim"));
        // More than max-listen-uris (6), though within none of the session limits: refused, one token spent.
        var tooMany = listen(token, 1, handbook(7));
        JsonNode refusal = JSON.readTree(tooMany.body());
        assertEquals(-32602, refusal.path("error").path("code").asInt(), refusal.toString());
        assertEquals(6, refusal.path("error").path("data").path("maxSubscriptions").asInt());

        // Six URIs: granted (max-per-session is 2: listens have their own maximum), and six tokens spent.
        var granted = listen(token, 2, handbook(6));
        assertEquals(200, granted.statusCode());
        try (var events = new SseEvents(granted.body())) {
            var ack = events.next(10_000);
            assertEquals("notifications/subscriptions/acknowledged", ack.json().path("method").asText(), ack.json().toString());
            assertEquals(6, ack.json().path("params").path("notifications").path("resourceSubscriptions").size());
        }
        // 1 + 6 spent, 3 left: a listen naming four is refused by the limit, as a whole; one naming three is granted.
        var four = listen(token, 3, handbook(4));
        assertEquals(429, four.statusCode());
        assertEquals(-32004, JSON.readTree(four.body()).path("error").path("code").asInt());
        var three = listen(token, 4, handbook(3));
        assertEquals(200, three.statusCode(), "a refused listen kept the tokens it could not pay for");
        three.body().close();
        Modern.read(token, 5, HANDBOOK).statusCode(429).body("error.code", equalTo(-32004));
    }
}
