package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.OversizedPost;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Refusals past a subject's attempt limit are merged: one {@code ATTEMPT_SUMMARY} per (subject, client, reason) and
 * window, with the exact count, first and last time, and the URIs they named (each among the sample or counted in
 * {@code uris_more}). Every refusal is answered only once the record counting it has committed, with that record's
 * request id, and while it waits it holds no place in flight: a legitimate client beside the flood is served.
 */
@QuarkusTest
@TestProfile(RefusalMergeTest.Tight.class)
class RefusalMergeTest {

    static final int LIMIT = 5;
    /** Above the flood of the counting test (6 requests at a time), below the waiting refusals of the admission test (20). */
    static final int MAX_IN_FLIGHT = 10;
    /** The merge window, shorter than the shipped second so that refusals waiting for their summary wait less. */
    static final Duration WINDOW = Duration.ofMillis(250);

    public static class Tight implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.audit.attempts.limit", Integer.toString(LIMIT),
                    "quaestor.audit.attempts.period", "600s",
                    "quaestor.audit.attempts.merge-window", WINDOW.toMillis() + "ms",
                    "quaestor.http.max-in-flight", Integer.toString(MAX_IN_FLIGHT),
                    // Refusals merging is what is tested here: a subject may take the whole bound (its cap is elsewhere).
                    "quaestor.limits.per-subject.in-flight-share", "1");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ExecutorService POOL = Executors.newFixedThreadPool(24);

    @TestHTTPResource("/mcp")
    URI mcp;

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    record Answer(int status, String header, JsonNode body) {
        int code() {
            return body.path("error").path("code").asInt();
        }

        String requestId() {
            return body.path("error").path("data").path("requestId").asText(null);
        }
    }

    private Answer read(HttpClient http, String token, Object id, String uri) throws Exception {
        var r = http.send(HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", Modern.VERSION)
                .header("Mcp-Method", "resources/read").header("Mcp-Name", uri)
                .POST(HttpRequest.BodyPublishers.ofString(Modern.body(id, "resources/read", "\"uri\":\"" + uri + "\"")))
                .build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.headers().firstValue("X-Request-Id").orElse(null), JSON.readTree(r.body()));
    }

    /** A 2025-03-26 batch of denied reads, each naming a URI of its own; returns each URI's answer. */
    private Map<String, JsonNode> batch(HttpClient http, String token, String session, int from, int n) throws Exception {
        var body = new StringBuilder("[");
        var uris = new ArrayList<String>();
        for (int i = from; i < from + n; i++) {
            String uri = "file:///docs/home/bob/probe-" + i + ".md";
            uris.add(uri);
            body.append(i == from ? "" : ",").append("{\"jsonrpc\":\"2.0\",\"id\":").append(i)
                    .append(",\"method\":\"resources/read\",\"params\":{\"uri\":\"").append(uri).append("\"}}");
        }
        var r = http.send(HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(body.append("]").toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        JsonNode answers = JSON.readTree(r.body());
        assertEquals(n, answers.size());
        var out = new HashMap<String, JsonNode>();
        for (JsonNode a : answers) {
            out.put(uris.get(a.path("id").asInt() - from), a);
        }
        return out;
    }

    @Test
    void aFloodVaryingTheUriWritesAtMostTheBoundAndNamesEveryUri() throws Exception {
        String mallory = TestIssuer.sign(TestIssuer.claims("mallory"));
        String session = Rpc.initialize(mallory, "2025-03-26");
        // 540 denied reads, within the shipped per-user limit (600 a minute): refusals spend tokens too.
        int threads = 6;
        int batches = 2;
        int size = 45; // more distinct URIs join a window than its sample keeps
        int n = threads * batches * size;
        Instant since = Instant.now();
        Map<String, JsonNode> answers = new ConcurrentHashMap<>();
        HttpClient http = HttpClient.newHttpClient();
        long t0 = System.nanoTime();
        var sent = new ArrayList<Future<?>>();
        var next = new AtomicInteger();
        for (int t = 0; t < threads; t++) {
            sent.add(POOL.submit(() -> {
                for (int b = next.getAndIncrement(); b < threads * batches; b = next.getAndIncrement()) {
                    answers.putAll(batch(http, mallory, session, b * size, size));
                }
                return null;
            }));
        }
        for (Future<?> f : sent) {
            f.get(120, TimeUnit.SECONDS);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(n, answers.size());

        // Each was refused, and each answer names a record that had committed before it was sent.
        List<AuditRow> rows = AuditRow.list("subject = 'mallory' and event_time >= ? order by id", since);
        Map<String, AuditRow> byId = new HashMap<>();
        rows.forEach(r -> byId.put(r.requestId, r));
        for (JsonNode a : answers.values()) {
            assertEquals(-32003, a.path("error").path("code").asInt(), a.toString());
            String id = a.path("error").path("data").path("requestId").asText();
            assertNotNull(byId.get(id), "the answer's request id is on record: " + id);
        }
        List<AuditRow> single = rows.stream().filter(r -> r.kind.equals("DECISION")).toList();
        List<AuditRow> summaries = rows.stream().filter(r -> r.kind.equals("ATTEMPT_SUMMARY")).toList();
        assertEquals(rows.size(), single.size() + summaries.size(), "nothing else was written: " + rows);
        assertEquals(LIMIT, single.size(), "refusals under the attempt limit are records of their own");
        // One key (mallory, test-client, denied): at most one summary per window of the flood and per 32 distinct URIs.
        assertTrue(summaries.size() <= Math.ceil(seconds / (WINDOW.toMillis() / 1000.0)) + 1 + Math.ceil((n - LIMIT) / 32.0),
                summaries.size() + " summaries in " + seconds + " s");
        System.out.printf("RefusalMergeTest: %d denied reads in %.2f s: %d records (%d on their own, %d summaries)%n", n,
                seconds, rows.size(), single.size(), summaries.size());

        long counted = 0;
        long more = 0;
        Set<String> sampled = new HashSet<>();
        for (AuditRow s : summaries) {
            assertEquals("3", s.format, "a summary is a format-3 record");
            assertEquals("refused", s.outcome);
            assertEquals("DENY", s.decision);
            assertEquals(-32003, s.errorCode);
            assertEquals("test-client", s.client);
            assertEquals(session, s.sessionId, "what every refusal it counts shared is kept");
            assertNull(s.uri, "the URIs differed: the summary names them in its sample, not in uri");
            var sample = s.uriCounts();
            assertTrue(sample.size() <= 32, "at most 32 distinct URIs: " + sample.size());
            long inSample = sample.values().stream().mapToLong(Long::longValue).sum();
            assertEquals((long) s.eventCount, inSample + s.urisMore, "the sample and uris_more add up to the count");
            assertTrue(!s.firstTime.isAfter(s.lastTime) && !s.lastTime.isAfter(s.time), s.toString());
            assertTrue(s.detail.contains("left out where they differed") && s.detail.contains("uri"), s.detail);
            sampled.addAll(sample.keySet());
            counted += s.eventCount;
            more += s.urisMore;
        }
        assertEquals(n - LIMIT, counted, "exact count: every refusal past the limit is counted once");
        assertEquals(0, more, "every refusal named a URI, and every URI is in a summary's list");
        Set<String> own = new HashSet<>();
        single.forEach(r -> own.add(r.uri));
        long unsampled = answers.keySet().stream().filter(u -> !own.contains(u) && !sampled.contains(u)).count();
        assertEquals(0, unsampled, "every URI is on record by name: in a record of its own or in a summary's list");
        // The URI search finds a summary by a URI of its sample.
        String anySampled = sampled.iterator().next();
        assertTrue(AuditRow.count("kind = 'ATTEMPT_SUMMARY' and uris like ?", "% " + anySampled + "%") >= 1);
    }

    /** A 2025-03-26 batch of reads of {@code uris}, in order; each URI's answer. */
    private Map<String, JsonNode> batchOf(HttpClient http, String token, String session, List<String> uris) throws Exception {
        var body = new StringBuilder("[");
        for (int i = 0; i < uris.size(); i++) {
            body.append(i == 0 ? "" : ",").append("{\"jsonrpc\":\"2.0\",\"id\":").append(i)
                    .append(",\"method\":\"resources/read\",\"params\":{\"uri\":\"").append(uris.get(i)).append("\"}}");
        }
        var r = http.send(HttpRequest.newBuilder(mcp).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString(body.append("]").toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        var out = new HashMap<String, JsonNode>();
        for (JsonNode a : JSON.readTree(r.body())) {
            out.put(uris.get(a.path("id").asInt()), a);
        }
        return out;
    }

    @Test
    void probesBehindDecoysThatFillEachSummaryAreFoundByUriPrefixAndFromTheirRequestIds() throws Exception {
        String oscar = TestIssuer.sign(TestIssuer.claims("oscar"));
        String session = Rpc.initialize(oscar, "2025-03-26");
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < LIMIT; i++) {
            read(http, oscar, "spend-" + i, "file:///docs/tenants/globex/spend-" + i + ".md"); // past the attempt limit
        }
        // Each batch opens its window with 32 decoys, then probes secret/ and home/bob/: 160 probes in all (a batch holds
        // at most 50 messages, and 485 reads stay within the shipped limit of 600 a minute).
        var probes = new HashMap<String, JsonNode>();
        for (int round = 0; round < 10; round++) {
            var uris = new ArrayList<String>();
            for (int i = 0; i < 32; i++) {
                uris.add("file:///docs/tenants/globex/decoy-" + round + "-" + i + ".md");
            }
            var theseProbes = new ArrayList<String>();
            for (int j = 0; j < 8; j++) {
                theseProbes.add("file:///docs/secret/probe-" + round + "-" + j + ".md");
                theseProbes.add("file:///docs/home/bob/probe-" + round + "-" + j + ".md");
            }
            uris.addAll(theseProbes);
            Map<String, JsonNode> answers = batchOf(http, oscar, session, uris);
            theseProbes.forEach(p -> probes.put(p, answers.get(p)));
            Thread.sleep(WINDOW.toMillis() + 100); // the next batch finds its window closed: it opens one with its decoys first
        }
        assertEquals(160, probes.size());

        // From each probe's request id, the record that counts it names it.
        for (var e : probes.entrySet()) {
            assertEquals(-32003, e.getValue().path("error").path("code").asInt(), e.getValue().toString());
            String id = e.getValue().path("error").path("data").path("requestId").asText();
            AuditRow r = AuditRow.first("request_id = ?", id);
            assertTrue(r.uriCounts().containsKey(e.getKey()) || e.getKey().equals(r.uri),
                    "the record " + id + " names " + e.getKey() + ": " + r.uris);
        }
        // The auditor's URI search finds every probe of each prefix.
        String auditor = TestIssuer.tokenFor("auditor");
        for (String prefix : List.of("file:///docs/secret/", "file:///docs/home/bob/")) {
            List<String> lines = io.restassured.RestAssured.given().header("Authorization", "Bearer " + auditor)
                    .queryParam("subject", "oscar").queryParam("uriPrefix", prefix).queryParam("limit", 1000)
                    .get("/audit/search").then().statusCode(200).extract().jsonPath().getList("records.uris", String.class);
            Set<String> found = new HashSet<>();
            for (String uris : lines) {
                if (uris != null) {
                    for (String line : uris.split("\n")) {
                        found.add(line.substring(line.indexOf(' ') + 1));
                    }
                }
            }
            long missing = probes.keySet().stream().filter(p -> p.startsWith(prefix) && !found.contains(p)).count();
            assertEquals(0, missing, missing + " probes of " + prefix + " not found by the search");
        }
    }

    @Test
    void oneUriRefusedOverAndOverIsOneLineWithItsCount() throws Exception {
        String trudy = TestIssuer.sign(TestIssuer.claims("trudy"));
        Instant since = Instant.now();
        HttpClient http = HttpClient.newHttpClient();
        String uri = "file:///docs/home/bob/notes.md";
        for (int i = 0; i < LIMIT + 12; i++) {
            assertEquals(-32003, read(http, trudy, i, uri).code());
        }
        List<AuditRow> summaries = AuditRow.list("subject = 'trudy' and kind = 'ATTEMPT_SUMMARY' and event_time >= ?", since);
        assertEquals(12L, summaries.stream().mapToLong(r -> r.eventCount).sum());
        for (AuditRow s : summaries) {
            assertEquals(uri, s.uri, "every refusal named it: the summary keeps it");
            assertEquals(Map.of(uri, s.eventCount), s.uriCounts());
            assertEquals(0L, s.urisMore);
        }
    }

    /**
     * Bodies that are not one JSON value, sent over and over on both generations, are merged past the attempt limit
     * like any refusal: every one answered -32700 with the request id of the record counting it, once that has committed.
     */
    @Test
    void unreadableBodiesPastTheAttemptLimitAreCountedInSummaries() {
        String peggy = TestIssuer.sign(TestIssuer.claims("peggy"));
        Instant since = Instant.now();
        int sent = LIMIT + 10;
        for (int i = 0; i < sent; i++) {
            var spec = i % 2 == 0 ? Rpc.as(peggy) : Modern.as(peggy, "resources/read");
            String rid = spec.body("{").post("/mcp").then().statusCode(400).body("error.code", org.hamcrest.Matchers.equalTo(-32700))
                    .extract().header("X-Request-Id");
            AuditRow r = AuditRow.first("request_id = ?", rid);
            assertNotNull(r, "the answer names a committed record: " + rid);
            assertEquals("parse-error", r.outcome);
            assertEquals(-32700, r.errorCode);
        }
        for (AuditRow s : countedInSummaries("peggy", since, 10, "parse-error")) {
            assertEquals(-32700, s.errorCode);
        }
    }

    /**
     * Bodies whose chunked framing breaks are answered before they are recorded (the connection cannot wait): past
     * the attempt limit they are counted in summaries like any refusal, and a summary of them says they were answered
     * first, under ids of their own, never that each waited for its commit.
     */
    @Test
    void brokenBodiesPastTheAttemptLimitAreSummarisedAsAnsweredFirst() throws Exception {
        String sybil = TestIssuer.sign(TestIssuer.claims("sybil"));
        Instant since = Instant.now();
        int sent = LIMIT + 4;
        String head = "POST /mcp HTTP/1.1\r\nHost: " + mcp.getHost() + ":" + mcp.getPort() + "\r\nAuthorization: Bearer "
                + sybil + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\nTransfer-Encoding: chunked\r\n\r\n";
        for (int i = 0; i < sent; i++) {
            try (var socket = new java.net.Socket(mcp.getHost(), mcp.getPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(head.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                socket.getOutputStream().flush();
                Thread.sleep(100);
                socket.getOutputStream().write("5\r\n{\"jso\r\nzz\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(answer.startsWith("HTTP/1.1 400 "), answer);
            }
        }
        dev.quaestor.support.Wait.until("every summary is on record", Duration.ofSeconds(10), () -> AuditRow.list(
                "subject = ? and kind = 'ATTEMPT_SUMMARY' and event_time >= ?", "sybil", since).stream()
                .mapToLong(r -> r.eventCount).sum() == sent - LIMIT);
        for (AuditRow s : countedInSummaries("sybil", since, sent - LIMIT, "unreadable")) {
            assertTrue(s.detail.contains("each was answered before it was recorded, under a request id of its own"), s.detail);
        }
    }

    /**
     * POSTs naming a session the caller has not (expired, forgotten by a replica, never opened), over and over, are
     * merged past the attempt limit like any refusal: each still a bare 404, naming the record counting it.
     */
    @Test
    void unknownSessionsPastTheAttemptLimitAreCountedInSummaries() {
        String quinn = TestIssuer.sign(TestIssuer.claims("quinn"));
        Instant since = Instant.now();
        int sent = LIMIT + 10;
        for (int i = 0; i < sent; i++) {
            String rid = Rpc.call(quinn, "gone-" + i, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}").statusCode(404)
                    .body(org.hamcrest.Matchers.equalTo("")).extract().header("X-Request-Id");
            AuditRow r = AuditRow.first("request_id = ?", rid);
            assertNotNull(r, "the answer names a committed record: " + rid);
            assertEquals("session-unknown", r.outcome);
        }
        countedInSummaries("quinn", since, 10, "session-unknown");
    }

    /**
     * Bodies declared over the size limit, sent over and over, are merged past the attempt limit like any refusal: each
     * still a 413 from its headers alone, naming the record counting it, once that has committed.
     */
    @Test
    void oversizedBodiesPastTheAttemptLimitAreCountedInSummaries() throws Exception {
        String rupert = TestIssuer.sign(TestIssuer.claims("rupert"));
        Instant since = Instant.now();
        int sent = LIMIT + 10;
        for (int i = 0; i < sent; i++) {
            var answer = OversizedPost.send(mcp, rupert, 20_000_000);
            assertEquals(413, answer.status(), answer.raw());
            AuditRow r = AuditRow.first("request_id = ?", answer.requestId());
            assertNotNull(r, "the answer names a committed record: " + answer.requestId());
            assertEquals("too-large", r.outcome);
        }
        for (AuditRow s : countedInSummaries("rupert", since, 10, "too-large")) {
            assertNull(s.errorCode);
        }
    }

    @Test
    void refusalsWaitingForTheirSummaryHoldNoPlaceInFlight() throws Exception {
        String eve = TestIssuer.sign(TestIssuer.claims("eve"));
        String alice = TestIssuer.tokenFor("alice");
        HttpClient http = HttpClient.newHttpClient();
        // Past eve's attempt limit first, so that every refusal of the flood waits for its window to close.
        for (int i = 0; i < LIMIT; i++) {
            read(http, eve, i, "file:///docs/home/bob/x.md");
        }
        AtomicBoolean flooding = new AtomicBoolean(true);
        AtomicInteger waited = new AtomicInteger();
        AtomicInteger shed = new AtomicInteger();
        var flood = new ArrayList<Future<?>>();
        for (int t = 0; t < 20; t++) {
            int thread = t;
            flood.add(POOL.submit(() -> {
                for (int i = 0; flooding.get(); i++) {
                    long start = System.nanoTime();
                    Answer a = read(http, eve, i, "file:///docs/home/bob/f-" + thread + "-" + i + ".md");
                    if (a.status() == 503 || a.status() == 429) {
                        // Released together when a window closes, the flood's threads come back at once: past the
                        // replica's bound (503) or, when eve alone holds all of it, past her own cap (429), which is
                        // the same number here and is checked first.
                        assertEquals(a.status() == 503 ? -32005 : -32004, a.code(), a.body().toString());
                        shed.incrementAndGet();
                        continue;
                    }
                    assertEquals(-32003, a.code(), a.body().toString());
                    if (System.nanoTime() - start > 100_000_000L) {
                        waited.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        // The flood's refusals now wait for their windows, 20 at a time: more than max-in-flight.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).pollInterval(java.time.Duration.ofMillis(20))
                .until(() -> waited.get() >= 20);
        int served = 0;
        for (int i = 0; i < 10; i++) {
            Answer a = read(http, alice, "a" + i, "file:///docs/handbook/welcome.md");
            if (a.status() == 200 && a.body().has("result")) {
                served++;
            }
        }
        flooding.set(false);
        for (Future<?> f : flood) {
            f.get(60, TimeUnit.SECONDS);
        }
        assertTrue(waited.get() >= 20, "the flood's refusals did wait for their summaries: " + waited.get());
        System.out.printf("RefusalMergeTest: beside a flood of 20 waiting refusals (%d shed), alice was served %d of 10%n",
                shed.get(), served);
        assertTrue(served >= 9, "a legitimate client beside the flood is served: " + served + " of 10");
    }

    /**
     * {@code subject}'s refusals at the door since {@code since}: the first {@link #LIMIT} recorded one by one, the
     * {@code past} after them counted in summaries, each summary with {@code outcome}. Returns the summaries.
     */
    private static List<AuditRow> countedInSummaries(String subject, Instant since, int past, String outcome) {
        assertEquals(LIMIT, AuditRow.count("subject = ? and kind = 'DECISION' and event_time >= ?", subject, since));
        List<AuditRow> summaries = AuditRow.list("subject = ? and kind = 'ATTEMPT_SUMMARY' and event_time >= ?", subject, since);
        assertEquals((long) past, summaries.stream().mapToLong(r -> r.eventCount).sum(), "every refusal past the limit is counted");
        for (AuditRow s : summaries) {
            assertEquals(outcome, s.outcome);
        }
        return summaries;
    }
}
