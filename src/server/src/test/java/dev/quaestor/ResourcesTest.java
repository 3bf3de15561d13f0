package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.Repo;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Resource methods through the official MCP Java SDK client, with audit checks in PostgreSQL. */
@QuarkusTest
class ResourcesTest {

    @TestHTTPResource("/")
    URL base;

    private final List<McpSyncClient> open = new ArrayList<>();

    private McpSyncClient as(String user) {
        var c = McpClients.connect(base, TestIssuer.tokenFor(user));
        open.add(c);
        return c;
    }

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    private static List<String> allUris(McpSyncClient client) {
        var uris = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = client.listResources(cursor == null ? McpSchema.FIRST_PAGE : cursor);
            assertTrue(page.resources().size() <= 3, "page size is 3 in tests, got " + page.resources().size());
            page.resources().forEach(r -> uris.add(r.uri()));
            cursor = page.nextCursor();
            assertTrue(++pages < 50, "paging must end");
        } while (cursor != null);
        return uris;
    }

    @Test
    void listIsPagedAndFilteredByPolicy() {
        List<String> alice = allUris(as("alice"));
        assertEquals(alice.size(), new HashSet<>(alice).size(), "no duplicates across pages");
        assertTrue(alice.contains("file:///docs/trials/onco-734/summary.md"));
        assertTrue(alice.contains("file:///docs/home/alice/notes.md"));
        assertTrue(alice.contains("test://static-text"));
        assertTrue(alice.contains("test-data://secret"));
        assertFalse(alice.contains("file:///docs/home/bob/notes.md"), "another user's home is not listed");
        assertFalse(alice.contains("file:///docs/trials/onco-734/raw/sample-001.bin"), "denied raw data is not listed");
        assertTrue(alice.size() > 3, "more than one page");

        List<String> bob = allUris(as("bob"));
        assertFalse(bob.contains("file:///docs/trials/onco-734/summary.md"));
        assertFalse(bob.contains("test-data://secret"));
        assertTrue(bob.contains("file:///docs/home/bob/notes.md"));
        assertTrue(bob.contains("file:///docs/handbook/welcome.md"));

        // The SDK's own all-pages helper follows our cursors to the same set.
        assertEquals(new HashSet<>(alice), new HashSet<>(as("alice").listResources().resources().stream()
                .map(McpSchema.Resource::uri).toList()));
    }

    @Test
    void invalidCursorIsInvalidParams() {
        var client = as("alice");
        var err = McpClients.expectError(() -> client.listResources("not-a-cursor"));
        assertEquals(-32602, err.getJsonRpcError().code());
    }

    @Test
    void readsTextWithItsMimeType() {
        var result = as("alice").readResource(new McpSchema.ReadResourceRequest("file:///docs/trials/onco-734/summary.md"));
        var content = (McpSchema.TextResourceContents) result.contents().get(0);
        assertEquals("file:///docs/trials/onco-734/summary.md", content.uri());
        assertEquals("text/markdown", content.mimeType());
        assertTrue(content.text().startsWith("# ONCO-734"));
    }

    @Test
    void readsBinaryAsBase64Blob() throws Exception {
        var result = as("bob").readResource(new McpSchema.ReadResourceRequest("file:///docs/public/logo.png"));
        var content = (McpSchema.BlobResourceContents) result.contents().get(0);
        assertEquals("image/png", content.mimeType());
        byte[] bytes = Base64.getDecoder().decode(content.blob());
        assertEquals(java.nio.file.Files.size(Repo.CONTENT.resolve("docs/public/logo.png")), bytes.length);
        assertEquals((byte) 0x89, bytes[0]);
    }

    @Test
    void listsTemplatesTheCallerCanUse() {
        var templates = as("alice").listResourceTemplates().resourceTemplates();
        assertTrue(templates.stream().anyMatch(t -> t.uriTemplate().equals("test://template/{id}/data")));
        assertTrue(templates.stream().anyMatch(t -> t.uriTemplate().equals("file:///docs/{+path}")));
        var read = as("alice").readResource(new McpSchema.ReadResourceRequest("test://template/42/data"));
        var text = ((McpSchema.TextResourceContents) read.contents().get(0)).text();
        assertEquals("{\"id\":\"42\",\"templateTest\":true,\"data\":\"Data for ID: 42\"}", text);
    }

    @Test
    void deniedReadIsMinus32003WithNoContentAndNoExistenceOracle() {
        var bob = as("bob");
        var existing = McpClients.expectError(() -> bob.readResource(new McpSchema.ReadResourceRequest("test-data://secret")));
        var missing = McpClients.expectError(() -> bob.readResource(new McpSchema.ReadResourceRequest("test-data://no-such-thing")));
        for (var err : List.of(existing, missing)) {
            assertEquals(-32003, err.getJsonRpcError().code());
            assertEquals("Permission denied", err.getJsonRpcError().message());
            String data = String.valueOf(err.getJsonRpcError().data());
            assertFalse(data.contains("TOP-SECRET"), data);
            assertTrue(data.contains("requestId"), data);
            assertFalse(data.contains("secret-for-alice"), "the rule is never disclosed: " + data);
        }
    }

    @Test
    void missingAllowedResourceIsMinus32002() {
        var err = McpClients.expectError(() -> as("alice").readResource(new McpSchema.ReadResourceRequest("file:///docs/handbook/absent.md")));
        assertEquals(-32002, err.getJsonRpcError().code());
        assertTrue(String.valueOf(err.getJsonRpcError().data()).contains("file:///docs/handbook/absent.md"));
    }

    @Test
    void everyAllowedAndDeniedReadLeavesAuditRows() throws Exception {
        var alice = as("alice");
        alice.readResource(new McpSchema.ReadResourceRequest("file:///docs/home/alice/notes.md"));
        var err = McpClients.expectError(() -> alice.readResource(new McpSchema.ReadResourceRequest("file:///docs/home/bob/notes.md")));
        String deniedRequestId = (String) ((Map<?, ?>) err.getJsonRpcError().data()).get("requestId");

        byte[] served = java.nio.file.Files.readAllBytes(Repo.CONTENT.resolve("docs/home/alice/notes.md"));
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(served));

        List<AuditRow> allowed = AuditRow.list("uri = ? and subject = ? order by id", "file:///docs/home/alice/notes.md", "alice");
        AuditRow decision = allowed.stream().filter(a -> a.kind.equals("DECISION")).reduce((a, b) -> b).orElseThrow();
        assertEquals("ALLOW", decision.decision);
        assertEquals("own-home", decision.rules);
        assertNotNull(decision.policyRevision);
        assertEquals(64, decision.policyRevision.length());
        AuditRow outcome = allowed.stream().filter(a -> a.kind.equals("OUTCOME") && a.requestId.equals(decision.requestId))
                .findFirst().orElseThrow();
        assertEquals("ok", outcome.outcome);
        assertEquals(served.length, outcome.bytes);
        assertEquals(sha, outcome.contentSha256);
        assertNotNull(outcome.latencyMicros);
        assertTrue(decision.id < outcome.id, "the decision is committed before the outcome");

        List<AuditRow> denied = AuditRow.list("request_id = ?", deniedRequestId);
        assertEquals(1, denied.size(), "a denial leaves one record and never an outcome with content");
        assertEquals("DENY", denied.get(0).decision);
        assertEquals(-32003, denied.get(0).errorCode);
        assertEquals("file:///docs/home/bob/notes.md", denied.get(0).uri);
        assertNull(denied.get(0).contentSha256);
        assertEquals("alice", denied.get(0).subject);
        assertTrue(denied.get(0).sourceIp.startsWith("hmac:"), "source addresses are stored hashed in tests");
        // An auditor can find out what a given address is stored as, and search by it.
        String auditor = TestIssuer.tokenFor("auditor");
        String stored = io.restassured.RestAssured.given().header("Authorization", "Bearer " + auditor)
                .get("/audit/hash?field=ip&value=127.0.0.1").then().statusCode(200)
                .body("hashed", org.hamcrest.Matchers.equalTo(true)).extract().path("stored");
        assertEquals(stored,
                AuditRow.list("request_id = ?", deniedRequestId).get(0).sourceIp);
        io.restassured.RestAssured.given().header("Authorization", "Bearer " + auditor)
                .get("/audit/search?subject=alice&uriPrefix=file:///docs/home/bob/").then().statusCode(200)
                .body("records.request", org.hamcrest.Matchers.hasItem(deniedRequestId))
                .body("records.find { it.request == '" + deniedRequestId + "' }.ip", org.hamcrest.Matchers.equalTo(stored));
    }

    /** An auditor's search is on record with every filter it gave, so the log of who looked at what shows the query run. */
    @Test
    void anAuditorsSearchIsOnRecordWithEveryFilterItGave() {
        String auditor = TestIssuer.tokenFor("auditor");
        String prefix = "file:///docs/searched-" + System.nanoTime() + "/";
        io.restassured.RestAssured.given().header("Authorization", "Bearer " + auditor)
                .get("/audit/search?subject=alice&uriPrefix=" + prefix + "&decision=DENY&kind=DECISION&outcome=refused"
                        + "&from=2026-01-01T00:00:00Z&limit=5").then().statusCode(200);
        List<AuditRow> calls = AuditRow.list("method = 'audit/search' and detail like ?", "%" + prefix + "%");
        assertEquals(1, calls.size());
        assertEquals("subject=alice uriPrefix=" + prefix + " decision=DENY outcome=refused kind=DECISION"
                + " from=2026-01-01T00:00:00Z limit=5", calls.get(0).detail);
    }

    /**
     * A listing's OUTCOME holds how many entries were disclosed and the SHA-256 of their URIs as the client received
     * them, each followed by a line feed: whoever kept the answer can show it is the one on record.
     */
    @Test
    void listingsAreAuditedWithTheNumberAndDigestOfTheEntriesDisclosed() throws Exception {
        var page = as("bob").listResources(McpSchema.FIRST_PAGE);
        AuditRow last = AuditRow.first("subject = ? and method = ? and kind = ? order by id desc",
                "bob", "resources/list", "OUTCOME");
        assertTrue(page.resources().size() > 1, "a listing of several entries: " + page.resources());
        assertEquals(page.resources().size(), last.items);
        var listed = new StringBuilder();
        page.resources().forEach(r -> listed.append(r.uri()).append('\n'));
        assertEquals(java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(listed.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))), last.contentSha256);
        assertNull(last.bytes);
        assertEquals("ok", last.outcome);
    }

    @Test
    void hostileUrisNeverReachOtherContent() {
        var alice = as("alice");
        for (String uri : List.of("file:///docs/home/alice/../bob/notes.md", "file:///docs/home/alice/%2e%2e/bob/notes.md",
                "file:///docs/home/alice/..%2fbob/notes.md", "file:///docs/home/alice%2f..%2fbob/notes.md",
                "FILE:///docs/home/bob/notes.md", "file:///docs//home/bob/notes.md", "file:///docs/home/bob/notes.md%00.txt",
                "file:///docs/../../../../etc/passwd", "file:///docs/home/alice/..\\bob\\notes.md")) {
            var err = McpClients.expectError(() -> alice.readResource(new McpSchema.ReadResourceRequest(uri)));
            int code = err.getJsonRpcError().code();
            assertTrue(code == -32003 || code == -32602, uri + " gave " + code);
            assertFalse(String.valueOf(err.getJsonRpcError().data()).contains("Bob's working notes"));
        }
    }

    /**
     * A lone UTF-16 surrogate (sent as a JSON escape) has no canonical form: refused as an invalid URI, -32602, before
     * policy or provider, and the one record shows the URI as sent with the surrogate escaped, not a substitute.
     */
    @Test
    void aLoneSurrogateInAUriIsRefusedAsInvalidAndRecordedAsSent() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        String rid = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/handbook/a\\ud800b.md\"}}").statusCode(200)
                .body("error.code", org.hamcrest.Matchers.equalTo(-32602))
                .body("error.message", org.hamcrest.Matchers.containsString("surrogate"))
                .body("error.data.reason", org.hamcrest.Matchers.equalTo("invalid-uri"))
                .extract().header("X-Request-Id");
        var rows = AuditRow.list("request_id = ? ORDER BY seq", rid);
        assertEquals(1, rows.size(), "refused before anything was decided or served: " + rows);
        assertEquals("DENY", rows.get(0).decision);
        assertEquals("invalid-uri", rows.get(0).outcome, "not a URI: not a refusal by the policy");
        assertEquals(-32602, rows.get(0).errorCode);
        assertEquals("file:///docs/handbook/a\\uD800b.md", rows.get(0).uri);
    }

    @Test
    void contentIsServedUnderItsCanonicalUri() {
        var result = as("alice").readResource(new McpSchema.ReadResourceRequest("file:///docs/home/./alice//notes.md"));
        var content = (McpSchema.TextResourceContents) result.contents().get(0);
        assertEquals("file:///docs/home/alice/notes.md", content.uri());
        assertEquals(new String(readFile(Repo.CONTENT.resolve("docs/home/alice/notes.md").toString()), StandardCharsets.UTF_8), content.text());
    }

    private static byte[] readFile(String p) {
        try {
            return java.nio.file.Files.readAllBytes(java.nio.file.Path.of(p));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
