package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ExtraPolicies;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The example provider module (src/example-provider), a separate jar on the test class path
 * only, mounted purely by configuration and a policy rule: listed and read through /mcp with the
 * MCP Java SDK client, denied where the policy says so, and audited like every other mount.
 */
@QuarkusTest
@TestProfile(GreetingProviderMountTest.Mounted.class)
class GreetingProviderMountTest {

    /** What an administrator adds: a mount of type {@code greeting}, and a policy file. */
    public static class Mounted implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "quaestor.mounts.hello.provider", "greeting",
                    "quaestor.mounts.hello.uri", "hello://greetings/",
                    "quaestor.mounts.hello.options.names", "ada,grace,secret",
                    "quaestor.mounts.hello.options.salutation", "Hello");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(GreetingPolicy.class));
        }
    }

    /** The shipped policies plus one file allowing every subject the greetings except hello://greetings/secret. */
    public static class GreetingPolicy implements QuarkusTestResourceLifecycleManager {
        @Override
        public Map<String, String> start() {
            return Map.of("quaestor.policies.path", ExtraPolicies.directory("greeting-test-policies", "greetings.yaml", """
                    apiVersion: quaestor/v1
                    kind: Policy
                    metadata: {name: greetings}
                    rules:
                      - id: greetings-for-all
                        effect: allow
                        actions: [list, read]
                        resources: ["hello://greetings/*"]
                        subjects: {subjects: ["*"]}
                      - id: no-secret-greeting
                        effect: deny
                        actions: ["*"]
                        resources: ["hello://greetings/secret"]
                        subjects: {subjects: ["*"]}
                    """));
        }

        @Override
        public void stop() {
        }
    }

    @TestHTTPResource("/")
    URL base;

    private final List<McpSyncClient> open = new ArrayList<>();

    @AfterEach
    void close() {
        open.forEach(McpSyncClient::closeGracefully);
    }

    private McpSyncClient as(String user) {
        var c = McpClients.connect(base, TestIssuer.tokenFor(user));
        open.add(c);
        return c;
    }

    private static List<AuditRow> records(String uri, Instant since) {
        return AuditRow.list(
                "uri = ? and event_time >= ? order by id", uri, since);
    }

    private static String sha256(String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                    .digest(s.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void theMountIsListedAndReadUnderPolicyAndAudited() {
        Instant start = Instant.now().minusSeconds(1);
        var bob = as("bob");
        var uris = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = bob.listResources(cursor == null ? McpSchema.FIRST_PAGE : cursor);
            page.resources().forEach(r -> uris.add(r.uri()));
            cursor = page.nextCursor();
        } while (cursor != null && ++pages < 200);
        assertTrue(uris.containsAll(List.of("hello://greetings/ada", "hello://greetings/grace")), uris.toString());
        assertTrue(!uris.contains("hello://greetings/secret"), "a denied greeting is not listed: " + uris);
        var templates = bob.listResourceTemplates().resourceTemplates().stream().map(McpSchema.ResourceTemplate::uriTemplate).toList();
        assertTrue(templates.contains("hello://greetings/{name}"), templates.toString());

        var read = bob.readResource(new McpSchema.ReadResourceRequest("hello://greetings/ada"));
        var text = (McpSchema.TextResourceContents) read.contents().get(0);
        assertEquals("Hello, ada!", text.text());
        assertEquals("text/plain", text.mimeType());

        var denied = McpClients.expectError(() -> bob.readResource(new McpSchema.ReadResourceRequest("hello://greetings/secret")));
        assertEquals(-32003, denied.getJsonRpcError().code());
        var absent = McpClients.expectError(() -> bob.readResource(new McpSchema.ReadResourceRequest("hello://greetings/nobody")));
        assertEquals(-32002, absent.getJsonRpcError().code());

        var served = records("hello://greetings/ada", start);
        assertEquals(List.of("DECISION", "OUTCOME"), served.stream().map(e -> e.kind).toList());
        assertEquals("ALLOW", served.get(0).decision);
        assertEquals("greetings-for-all", served.get(0).rules);
        assertEquals("ok", served.get(1).outcome);
        assertEquals(11L, served.get(1).bytes);
        assertEquals(sha256("Hello, ada!"), served.get(1).contentSha256);
        assertEquals("bob", served.get(1).subject);

        var refused = records("hello://greetings/secret", start);
        assertEquals(1, refused.size(), "a denial is one DECISION record; the provider is never called");
        assertEquals("DENY", refused.get(0).decision);
        assertNotNull(refused.get(0).rules);
        assertTrue(refused.get(0).rules.contains("no-secret-greeting"), refused.get(0).rules);
        assertEquals(-32003, refused.get(0).errorCode);
    }
}
