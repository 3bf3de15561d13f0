package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ExtraPolicies;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resources far above the buffer limit (1 MiB) are streamed: a 20 MiB binary file and a multi-MiB
 * text file with everything JSON must escape, read with the MCP Java SDK client and REST Assured
 * (JSON and SSE), compared byte for byte with the files, and their OUTCOME records carrying the
 * files' SHA-256 and size. A mount's max-bytes refuses before anything is sent; a client that
 * stops reading is cut off after the write timeout, and that is audited.
 */
@QuarkusTest
@TestProfile(LargeContentTest.LargeFiles.class)
class LargeContentTest {

    static final Path DIR = Path.of("target", "large-content");
    static final Path BIN = DIR.resolve("random.bin");
    static final Path TEXT = DIR.resolve("escapes.txt");
    /** About 2.1 MB of text lines, two bytes that are not UTF-8 (FF FE) at byte 2,000,000: past the first MiB. */
    static final Path BROKEN = DIR.resolve("broken.txt");
    /** The same lines without those two bytes. */
    static final Path LINES = DIR.resolve("lines.txt");
    static final int BIN_SIZE = 20 * 1024 * 1024;
    static final String TEXT_LINE = "line with \"quotes\", back\\slashes, \ttabs, \u0001\u001f controls, é, 漢字 and 😀\r\n";

    static final int SEND_BUFFER = 128 * 1024;

    public static class LargeFiles implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            var settings = new java.util.HashMap<>(Map.of(
                    "quaestor.mounts.large.provider", "filesystem",
                    "quaestor.mounts.large.uri", "file:///large/",
                    "quaestor.mounts.large.root", DIR.toString(),
                    "quaestor.mounts.large.max-bytes", Integer.toString(64 * 1024 * 1024),
                    "quaestor.mounts.large.ttl-ms", "5000",
                    "quaestor.mounts.capped.provider", "filesystem",
                    "quaestor.mounts.capped.uri", "file:///capped/",
                    "quaestor.mounts.capped.root", DIR.toString(),
                    "quaestor.mounts.capped.max-bytes", Integer.toString(4 * 1024 * 1024),
                    "quaestor.read.write-timeout", "2s"));
            // Bounded, as for slow clients served directly: the large reads below go through a 128 KiB buffer.
            settings.put("quaestor.streams.send-buffer", Integer.toString(SEND_BUFFER));
            return settings;
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(Content.class));
        }
    }

    /** Writes the files (20 MiB of random bytes; text of every kind JSON escapes) and the policy. */
    public static class Content implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            try {
                Files.createDirectories(DIR);
                byte[] random = new byte[BIN_SIZE];
                new Random(20).nextBytes(random);
                Files.write(BIN, random);
                Files.writeString(TEXT, TEXT_LINE.repeat(40_000), StandardCharsets.UTF_8);
                byte[] lines = "hello world line\n".repeat(130_000).getBytes(StandardCharsets.US_ASCII);
                Files.write(LINES, lines);
                var broken = new java.io.ByteArrayOutputStream();
                broken.write(lines, 0, 2_000_000);
                broken.write(new byte[] {(byte) 0xFF, (byte) 0xFE});
                broken.write(lines, 2_000_000, lines.length - 2_000_000);
                Files.write(BROKEN, broken.toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("quaestor.policies.path", ExtraPolicies.directory("large-content-policies", "large.yaml", """
                    apiVersion: quaestor/v1
                    kind: Policy
                    metadata: {name: large-content}
                    rules:
                      - id: large-readers
                        effect: allow
                        actions: [list, read]
                        resources: ["file:///large/**", "file:///capped/**"]
                        subjects: {subjects: ["*"]}
                    """));
        }

        @Override
        public void stop() {
        }
    }

    @TestHTTPResource("/")
    URL base;

    private static final ObjectMapper JSON = new ObjectMapper();

    static {
        JSON.getFactory().setStreamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
                .maxStringLength(64 * 1024 * 1024).build());
    }

    private static String sha256(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static AuditRow outcome(String requestId) {
        return AuditRow.list(
                "request_id = ? and kind = 'OUTCOME'", requestId).stream().findFirst().orElse(null);
    }

    private static AuditRow lastOutcome(String uri, String subject, Instant since) {
        return AuditRow.list(
                "uri = ? and subject = ? and kind = 'OUTCOME' and event_time >= ? order by id desc", uri, subject, since)
                .stream().findFirst().orElseThrow();
    }

    private static String read(String uri) {
        return "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}";
    }

    @Test
    void aTwentyMibFileReadWithTheSdkClientIsTheFileAndItsOutcomeHasTheFilesDigest() throws Exception {
        Instant since = Instant.now().minusSeconds(1);
        byte[] file = Files.readAllBytes(BIN);
        McpSyncClient client = McpClients.connectForLargeContent(base, TestIssuer.tokenFor("bob"), 64 * 1024 * 1024);
        try {
            var blob = (McpSchema.BlobResourceContents) client.readResource(
                    new McpSchema.ReadResourceRequest("file:///large/random.bin")).contents().get(0);
            assertEquals("application/octet-stream", blob.mimeType());
            assertArrayEquals(file, Base64.getDecoder().decode(blob.blob()));
            var text = (McpSchema.TextResourceContents) client.readResource(
                    new McpSchema.ReadResourceRequest("file:///large/escapes.txt")).contents().get(0);
            assertEquals(Files.readString(TEXT, StandardCharsets.UTF_8), text.text());
        } finally {
            client.closeGracefully();
        }
        var row = lastOutcome("file:///large/random.bin", "bob", since);
        assertEquals("ok", row.outcome);
        assertEquals((long) BIN_SIZE, row.bytes);
        assertEquals(sha256(file), row.contentSha256);
        var textRow = lastOutcome("file:///large/escapes.txt", "bob", since);
        assertEquals(sha256(Files.readAllBytes(TEXT)), textRow.contentSha256);
        assertEquals(Files.size(TEXT), textRow.bytes);
    }

    @Test
    void restAssuredGetsTheSameBytesAsJsonAndAsSse() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        byte[] file = Files.readAllBytes(BIN);

        var json = Rpc.call(token, session, read("file:///large/random.bin")).statusCode(200)
                .contentType(containsString("application/json")).extract();
        JsonNode body = JSON.readTree(json.asByteArray());
        assertEquals(9, body.get("id").asInt());
        assertEquals("file:///large/random.bin", body.at("/result/contents/0/uri").asText());
        assertArrayEquals(file, Base64.getDecoder().decode(body.at("/result/contents/0/blob").asText()));
        var row = outcome(json.header("X-Request-Id"));
        assertEquals(sha256(file), row.contentSha256);
        assertEquals((long) BIN_SIZE, row.bytes);

        var sse = Rpc.as(token).accept("text/event-stream").header("Mcp-Session-Id", session)
                .body(read("file:///large/escapes.txt")).post("/mcp").then().statusCode(200)
                .contentType(containsString("text/event-stream")).extract();
        String event = sse.asString();
        assertTrue(event.startsWith("event: message\ndata: {"), event.substring(0, 40));
        assertTrue(event.endsWith("}\n\n"));
        JsonNode data = JSON.readTree(event.substring("event: message\ndata: ".length()));
        assertEquals(Files.readString(TEXT, StandardCharsets.UTF_8), data.at("/result/contents/0/text").asText());
        assertEquals(sha256(Files.readAllBytes(TEXT)), outcome(sse.header("X-Request-Id")).contentSha256);
    }

    /**
     * Whether a large file goes out as text is decided before its first byte: text whose first bytes look like text
     * but which has a byte that is not UTF-8 past the first MiB comes whole, as a blob of exactly its bytes (as it
     * would under the buffer limit), not as a text value cut off part-way; the same lines without that byte come as
     * text.
     */
    @Test
    void aLargeTextFileWithABytePastTheFirstMibThatIsNotUtf8ComesWholeAsABlob() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        byte[] file = Files.readAllBytes(BROKEN);

        var r = Rpc.call(token, session, read("file:///large/broken.txt")).statusCode(200)
                .contentType(containsString("application/json")).extract();
        JsonNode body = JSON.readTree(r.asByteArray()); // a complete JSON-RPC response, not one cut off
        assertEquals(9, body.get("id").asInt());
        assertTrue(body.get("error") == null, () -> body.get("error").toString());
        JsonNode content = body.at("/result/contents/0");
        assertEquals("file:///large/broken.txt", content.get("uri").asText());
        assertTrue(content.get("text") == null, "no text value");
        assertArrayEquals(file, Base64.getDecoder().decode(content.get("blob").asText()));
        var row = outcome(r.header("X-Request-Id"));
        assertEquals("ok", row.outcome);
        assertEquals(sha256(file), row.contentSha256);
        assertEquals((long) file.length, row.bytes);

        byte[] lines = Files.readAllBytes(LINES);
        var valid = Rpc.call(token, session, read("file:///large/lines.txt")).statusCode(200).extract();
        JsonNode text = JSON.readTree(valid.asByteArray()).at("/result/contents/0");
        assertTrue(text.get("blob") == null, "no blob");
        assertEquals(new String(lines, StandardCharsets.US_ASCII), text.get("text").asText());
        assertEquals(sha256(lines), outcome(valid.header("X-Request-Id")).contentSha256);
    }

    /** 2026-07-28: the streamed result carries resultType, the mount's ttlMs and cacheScope private ahead of the content. */
    @Test
    void aStreamedReadOnTheStatelessRevisionCarriesItsResultFields() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        byte[] file = Files.readAllBytes(BIN);
        var r = dev.quaestor.support.Modern.read(token, 77, "file:///large/random.bin").statusCode(200)
                .contentType(containsString("application/json")).extract();
        JsonNode body = JSON.readTree(r.asByteArray());
        assertEquals(77, body.get("id").asInt());
        assertEquals("complete", body.at("/result/resultType").asText());
        assertEquals(5000, body.at("/result/ttlMs").asInt());
        assertEquals("private", body.at("/result/cacheScope").asText());
        assertEquals("quaestor", body.at("/result/_meta/io.modelcontextprotocol~1serverInfo/name").asText());
        assertArrayEquals(file, Base64.getDecoder().decode(body.at("/result/contents/0/blob").asText()));
        var row = outcome(r.header("X-Request-Id"));
        assertEquals(sha256(file), row.contentSha256);
        assertEquals("private", row.cacheScope);
        assertEquals("2026-07-28", row.protocol);
    }

    /**
     * quaestor.streams.send-buffer is every accepted connection's SO_SNDBUF, as the kernel reports it ({@code ss}: the
     * send buffer, {@code tb}, is twice the size asked for, the kernel's own bookkeeping included).
     */
    @Test
    void theSendBufferSettingBoundsEachConnectionsSendBuffer() throws Exception {
        try (var socket = new java.net.Socket(base.getHost(), base.getPort())) {
            var ss = new ProcessBuilder("ss", "-tmnH", "state", "established", "( sport = :" + base.getPort()
                    + " and dport = :" + socket.getLocalPort() + " )").redirectErrorStream(true).start();
            String out = new String(ss.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, ss.waitFor(), out);
            var tb = java.util.regex.Pattern.compile("tb(\\d+)").matcher(out);
            assertTrue(tb.find(), "the server's end of the connection: " + out);
            assertEquals(2 * SEND_BUFFER, Integer.parseInt(tb.group(1)), out);
        }
    }

    @Test
    void aFileOverTheMountsMaxBytesIsRefusedBeforeAnythingIsSent() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        String requestId = Rpc.call(token, session, read("file:///capped/random.bin")).statusCode(200)
                .body("error.code", equalTo(-32603))
                .body("error.message", equalTo("Resource too large: 20971520 bytes exceeds this mount's limit of 4194304 bytes"))
                .body("error.data.maxBytes", equalTo(4194304))
                .body("error.data.size", equalTo(BIN_SIZE))
                .body("error.data.uri", equalTo("file:///capped/random.bin"))
                .extract().path("error.data.requestId");
        var row = outcome(requestId);
        assertEquals("too-large", row.outcome);
        assertEquals(null, row.contentSha256);
        var sdk = McpClients.connect(base, token);
        try {
            var e = McpClients.expectError(() -> sdk.readResource(new McpSchema.ReadResourceRequest("file:///capped/random.bin")));
            assertEquals(-32603, e.getJsonRpcError().code());
        } finally {
            sdk.closeGracefully();
        }
    }

    @Test
    void aClientThatStopsReadingIsCutOffAfterTheWriteTimeoutAndTheReadIsAuditedAsAborted() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        byte[] body = read("file:///large/random.bin").getBytes(StandardCharsets.UTF_8);
        try (var socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new java.net.InetSocketAddress(base.getHost(), base.getPort()));
            String request = "POST /mcp HTTP/1.1\r\nHost: " + base.getHost() + ":" + base.getPort() + "\r\n"
                    + "Authorization: Bearer " + token + "\r\nMcp-Session-Id: " + session + "\r\n"
                    + "Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().write(body);
            socket.getOutputStream().flush();
            String headers = headers(socket.getInputStream());
            assertTrue(headers.startsWith("HTTP/1.1 200"), headers);
            String requestId = headers.lines().filter(l -> l.toLowerCase().startsWith("x-request-id:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElseThrow();
            // Read nothing more: the server's writes back up and, 2 s later, it must give up on us.
            AuditRow row = org.awaitility.Awaitility.await("the stalled read audited").atMost(java.time.Duration.ofSeconds(20))
                    .pollInterval(java.time.Duration.ofMillis(50)).until(() -> outcome(requestId), java.util.Objects::nonNull);
            assertEquals("aborted", row.outcome);
            assertTrue(row.bytes < BIN_SIZE, "cut off part-way: " + row.bytes);
            // Cut off, the read gives its place in flight back: nothing else is in flight now.
            org.awaitility.Awaitility.await("its place in flight given back").atMost(java.time.Duration.ofSeconds(10))
                    .pollInterval(java.time.Duration.ofMillis(100)).until(LargeContentTest::inFlight, n -> n == 0);
        }
    }

    /** MCP requests in flight now, as {@code /q/metrics} says. */
    private static double inFlight() {
        String metrics = io.restassured.RestAssured.given().auth().oauth2(TestIssuer.tokenFor("prometheus")).get("/q/metrics")
                .then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("quaestor_http_in_flight ")).mapToDouble(l -> Double.parseDouble(
                l.substring(l.indexOf(' ') + 1))).findFirst().orElseThrow();
    }

    private static String headers(InputStream in) throws IOException {
        var s = new StringBuilder();
        while (!s.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            s.append((char) c);
        }
        return s.toString();
    }
}
