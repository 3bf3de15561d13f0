package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.NodeClient;
import dev.quaestor.support.RecordingTransport;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import dev.quaestor.support.Wait;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two real clients side by side against one server: the official MCP Java SDK (a 2025 revision, with a
 * session) as dave, and the MCP TypeScript SDK v2 client pinned to 2026-07-28 (stateless, in Node) as erin.
 * Each lists with paging, reads text, a blob and a template, is denied (-32003 on both), misses a resource
 * (-32002 on 2025, -32602 on 2026-07-28), subscribes or listens and is told of a change within 2 s, and is told
 * nothing once the policy revokes access. Both leave audit records of the same kinds, each naming its revision.
 */
@QuarkusTest
@TestProfile(ProvidersProfile.class)
class TwoClientsTest {

    private static final Path POLICY = TestPolicies.DIR.resolve("two-clients.yaml");
    private static final String A = "file:///watched/a.txt";
    private static final String CONTROL = "file:///watched/control.txt";
    private static final String DENIED = "file:///docs/home/alice/notes.md";
    private static final String MISSING = "test://nonexistent-resource-for-conformance-testing";

    @TestHTTPResource("/")
    URL base;

    private McpSyncClient java;
    private NodeClient ts;

    @AfterEach
    void cleanUp() throws Exception {
        if (java != null) {
            java.closeGracefully();
        }
        if (ts != null) {
            ts.close();
        }
        if (Files.deleteIfExists(POLICY)) {
            Wait.until("the test policy's removal", Duration.ofSeconds(10),
                    () -> !String.valueOf(policyHealth().get("files")).contains("two-clients"));
        }
    }

    private static void grant(String... resources) throws Exception {
        String before = (String) policyHealth().get("revision");
        Files.writeString(POLICY, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: two-clients-watch
                    effect: allow
                    actions: [list, read, subscribe]
                    resources: [%s]
                    subjects: {subjects: [dave, erin]}
                """.formatted(String.join(", ", List.of(resources).stream().map(r -> "\"" + r + "\"").toList())));
        Wait.until("the policy edit to be active", Duration.ofSeconds(15), () -> "ok".equals(policyHealth().get("state"))
                && !before.equals(policyHealth().get("revision")));
    }

    private static Map<String, Object> policyHealth() {
        return dev.quaestor.support.ActivePolicy.state();
    }

    private static void write(String uri, String text) throws Exception {
        Files.writeString(ProvidersProfile.WATCHED.resolve(uri.substring("file:///watched/".length())), text);
    }

    private static List<Long> updates(RecordingTransport recorder, String uri) {
        return recorder.notifications().stream().filter(n -> n.method().equals("notifications/resources/updated"))
                .filter(n -> String.valueOf(n.params()).contains("uri=" + uri + "}") || String.valueOf(n.params()).contains("uri=" + uri + ","))
                .map(RecordingTransport.Received::nanoTime).toList();
    }

    /** The Java SDK opens its GET stream in the background; a list change in the probe folder shows it is live. */
    private static void awaitStreamOpen(RecordingTransport recorder) throws Exception {
        Path probes = ProvidersProfile.WATCHED.resolve("probe");
        Files.createDirectories(probes);
        Wait.until("the Java client's stream to open", Duration.ofSeconds(10), () -> {
            long since = System.nanoTime();
            Path probe = Files.createTempFile(probes, "probe", ".txt");
            try {
                return Wait.holdsWithin(Duration.ofSeconds(1), () -> recorder.notifications().stream()
                        .anyMatch(n -> n.nanoTime() >= since && n.method().equals("notifications/resources/list_changed")));
            } finally {
                Files.deleteIfExists(probe);
            }
        });
    }

    @Test
    void theJavaSdkOn2025AndTheTypeScriptSdkOn20260728SideBySide() throws Exception {
        grant("file:///watched/**");
        // The server's clock is this JVM's: what this test causes is recorded at or after this instant, and what an
        // earlier test did as dave or erin (ListenTest uses erin) before it.
        Instant since = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        // --- connect: a session for the Java SDK, none for the TypeScript client ---
        var recorder = new RecordingTransport(McpClients.transport(base, TestIssuer.tokenFor("dave")));
        java = McpClient.sync(recorder).requestTimeout(Duration.ofSeconds(20)).build();
        String javaVersion = java.initialize().protocolVersion();
        assertEquals("2025-11-25", javaVersion, "the Java SDK's newest revision");
        awaitStreamOpen(recorder);

        ts = NodeClient.start(base.toString().replaceAll("/$", "") + "/mcp", TestIssuer.tokenFor("erin"));
        JsonNode connected = ts.ok("connect", Map.of());
        assertEquals("2026-07-28", connected.path("protocolVersion").asText(), connected.toString());
        assertTrue(connected.at("/capabilities/resources/subscribe").asBoolean());

        // --- list with paging (3 entries a page in tests); annotations travel from the provider ---
        var javaUris = new ArrayList<String>();
        int javaPages = 0;
        String cursor = null;
        McpSchema.Resource javaStaticText = null;
        do {
            var page = java.listResources(cursor == null ? McpSchema.FIRST_PAGE : cursor);
            for (var r : page.resources()) {
                javaUris.add(r.uri());
                if (r.uri().equals("test://static-text")) {
                    javaStaticText = r;
                }
            }
            cursor = page.nextCursor();
            javaPages++;
        } while (cursor != null);
        JsonNode tsList = ts.ok("list", Map.of());
        var tsUris = new ArrayList<String>();
        tsList.path("uris").forEach(u -> tsUris.add(u.asText()));
        assertTrue(javaPages > 1 && tsList.path("pages").asInt() > 1, javaPages + " and " + tsList.path("pages") + " pages");
        assertTrue(javaUris.containsAll(List.of(A, CONTROL, "test://static-text", "test://static-binary")), javaUris.toString());
        assertTrue(tsUris.containsAll(List.of(A, CONTROL, "test://static-text", "test://static-binary")), tsUris.toString());
        assertFalse(javaUris.contains(DENIED) || tsUris.contains(DENIED));
        assertNotNull(javaStaticText);
        assertEquals(List.of(McpSchema.Role.USER, McpSchema.Role.ASSISTANT), javaStaticText.annotations().audience());
        assertEquals(0.8, javaStaticText.annotations().priority(), 1e-9);
        assertEquals("[\"user\",\"assistant\"]", tsList.at("/annotations/test:~1~1static-text/audience").toString());
        assertEquals(0.8, tsList.at("/annotations/test:~1~1static-text/priority").asDouble(), 1e-9);
        var javaTemplate = java.listResourceTemplates().resourceTemplates().stream()
                .filter(t -> t.uriTemplate().equals("test://template/{id}/data")).findFirst().orElseThrow();
        assertEquals(List.of(McpSchema.Role.ASSISTANT), javaTemplate.annotations().audience());
        boolean tsTemplateAnnotated = false;
        for (JsonNode t : ts.ok("templates", Map.of()).path("templates")) {
            if (t.path("uriTemplate").asText().equals("test://template/{id}/data")) {
                tsTemplateAnnotated = t.at("/annotations/audience/0").asText().equals("assistant");
            }
        }
        assertTrue(tsTemplateAnnotated);

        // --- reads: text, blob, template ---
        var text = (McpSchema.TextResourceContents) java.readResource(new McpSchema.ReadResourceRequest("test://static-text")).contents().get(0);
        JsonNode tsText = ts.ok("read", Map.of("uri", "test://static-text"));
        assertEquals(text.text(), tsText.path("text").asText());
        assertEquals("private", tsText.path("cacheScope").asText());
        assertEquals(0, tsText.path("ttlMs").asInt());
        var blob = (McpSchema.BlobResourceContents) java.readResource(new McpSchema.ReadResourceRequest("test://static-binary")).contents().get(0);
        JsonNode tsBlob = ts.ok("read", Map.of("uri", "test://static-binary"));
        assertEquals(blob.blob(), tsBlob.path("blob").asText());
        assertEquals("image/png", tsBlob.path("mimeType").asText());
        var templated = (McpSchema.TextResourceContents) java.readResource(new McpSchema.ReadResourceRequest("test://template/123/data")).contents().get(0);
        assertTrue(templated.text().contains("123"));
        assertEquals(templated.text(), ts.ok("read", Map.of("uri", "test://template/123/data")).path("text").asText());

        // --- a denial: -32003 on both revisions ---
        assertEquals(-32003, McpClients.expectError(() -> java.readResource(new McpSchema.ReadResourceRequest(DENIED)))
                .getJsonRpcError().code());
        JsonNode tsDenied = ts.fails("read", Map.of("uri", DENIED));
        assertEquals(-32003, tsDenied.path("code").asInt(), tsDenied.toString());

        // --- a not-found: -32002 on 2025, -32602 with data {uri} on 2026-07-28 ---
        assertEquals(-32002, McpClients.expectError(() -> java.readResource(new McpSchema.ReadResourceRequest(MISSING)))
                .getJsonRpcError().code());
        JsonNode tsMissing = ts.fails("read", Map.of("uri", MISSING));
        assertEquals("ResourceNotFoundError", tsMissing.path("kind").asText(), tsMissing.toString());
        assertEquals(-32602, tsMissing.path("code").asInt());
        assertEquals(MISSING, tsMissing.path("uri").asText());

        // --- subscribe (2025) and listen (2026-07-28); a change is told within 2 s ---
        java.subscribeResource(new McpSchema.SubscribeRequest(A));
        java.subscribeResource(new McpSchema.SubscribeRequest(CONTROL));
        JsonNode honored = ts.ok("listen", Map.of("filter", Map.of("resourceSubscriptions", List.of(A, CONTROL))));
        assertEquals(Set.of(A, CONTROL), Set.copyOf(JsonPath.from(honored.toString()).getList("honored.resourceSubscriptions")));

        long writtenNanos = System.nanoTime();
        long writtenMillis = System.currentTimeMillis();
        write(A, "two-clients-1\n");
        Wait.until("the Java client's notification", Duration.ofSeconds(2), () -> !updates(recorder, A).isEmpty());
        assertTrue(updates(recorder, A).get(0) - writtenNanos < TimeUnit.SECONDS.toNanos(2));
        JsonNode tsUpdate = ts.ok("wait", Map.of("uri", A, "since", writtenMillis, "ms", 2_000));
        assertTrue(tsUpdate.path("received").asBoolean(), "the TypeScript client's notification within 2 s");
        assertTrue(tsUpdate.path("at").asLong() - writtenMillis < 2_000);
        assertTrue(tsUpdate.path("subscriptionId").asText().startsWith("listen:"), tsUpdate.toString());

        // --- the policy revokes a.txt (control.txt stays granted): neither client hears of it again ---
        grant(CONTROL);
        int javaBefore = updates(recorder, A).size();
        long revokedMillis = System.currentTimeMillis();
        write(A, "two-clients-2\n");
        write(CONTROL, "two-clients-control\n");
        Wait.until("the Java client's control notification", Duration.ofSeconds(2), () -> !updates(recorder, CONTROL).isEmpty());
        assertTrue(ts.ok("wait", Map.of("uri", CONTROL, "since", revokedMillis, "ms", 2_000)).path("received").asBoolean(),
                "the TypeScript client's control notification: its stream is alive");
        assertFalse(ts.ok("wait", Map.of("uri", A, "since", revokedMillis, "ms", 2_000)).path("received").asBoolean(),
                "no notification about a.txt to the TypeScript client after the revocation");
        assertEquals(javaBefore, updates(recorder, A).size(), "no notification about a.txt to the Java client after the revocation");

        // --- the audit trail: the same kinds of records for both, each naming its revision ---
        List<AuditRow> javaRows = AuditRow.list("subject = 'dave' AND event_time >= ? ORDER BY seq", since);
        List<AuditRow> tsRows = AuditRow.list("subject = 'erin' AND event_time >= ? ORDER BY seq", since);
        Set<String> resourceKinds = Set.of("DECISION", "OUTCOME", "NOTIFICATION");
        Set<String> javaKinds = new TreeSet<>(javaRows.stream().map(r -> r.kind).filter(resourceKinds::contains).toList());
        Set<String> tsKinds = new TreeSet<>(tsRows.stream().map(r -> r.kind).filter(resourceKinds::contains).toList());
        assertEquals(new TreeSet<>(resourceKinds), javaKinds);
        assertEquals(javaKinds, tsKinds);
        assertTrue(javaRows.stream().anyMatch(r -> r.kind.equals("SESSION_OPEN")), "the 2025 session's opening is recorded");
        for (AuditRow r : javaRows) {
            if (resourceKinds.contains(r.kind) || r.kind.equals("SESSION_OPEN")) {
                assertEquals(javaVersion, r.protocol, r.toString());
                assertNotNull(r.sessionId, r.toString());
            }
        }
        for (AuditRow r : tsRows) {
            if (resourceKinds.contains(r.kind)) {
                assertEquals("2026-07-28", r.protocol, r.toString());
                assertEquals("quaestor-ts-e2e/2.4.0", r.clientInfo, r.toString());
                assertTrue(r.correlation != null && r.correlation.startsWith("jti:"), r.toString());
            }
        }
        // The denial and the not-found as each client was answered.
        assertTrue(javaRows.stream().anyMatch(r -> DENIED.equals(r.uri) && "DENY".equals(r.decision) && r.errorCode == -32003));
        assertTrue(tsRows.stream().anyMatch(r -> DENIED.equals(r.uri) && "DENY".equals(r.decision) && r.errorCode == -32003));
        assertTrue(javaRows.stream().anyMatch(r -> MISSING.equals(r.uri) && "not-found".equals(r.outcome) && r.errorCode == -32002));
        assertTrue(tsRows.stream().anyMatch(r -> MISSING.equals(r.uri) && "not-found".equals(r.outcome) && r.errorCode == -32602));
        // Every notification each client got about a.txt has its record.
        assertTrue(javaRows.stream().filter(r -> r.kind.equals("NOTIFICATION") && A.equals(r.uri)).count() >= 1);
        assertTrue(tsRows.stream().filter(r -> r.kind.equals("NOTIFICATION") && A.equals(r.uri)).count() >= 1);
    }
}
