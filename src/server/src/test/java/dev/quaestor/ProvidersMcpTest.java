package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.McpClients;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.net.URL;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The git and database providers read through /mcp with the MCP Java SDK client, under policy. */
@QuarkusTest
@TestProfile(ProvidersProfile.class)
class ProvidersMcpTest {

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

    private static String text(McpSchema.ReadResourceResult r) {
        return ((McpSchema.TextResourceContents) r.contents().get(0)).text();
    }

    @Test
    void listsGitAndDatabaseResourcesAcrossPages() {
        var bob = as("bob");
        var uris = new ArrayList<String>();
        String cursor = null;
        int pages = 0;
        do {
            var page = bob.listResources(cursor == null ? McpSchema.FIRST_PAGE : cursor);
            page.resources().forEach(r -> uris.add(r.uri()));
            cursor = page.nextCursor();
        } while (cursor != null && ++pages < 100);
        assertTrue(uris.contains("git://handbook/main/README.md"), uris.toString());
        assertTrue(uris.contains("git://handbook/main/img/logo.png"));
        for (int id = 1; id <= 7; id++) {
            assertTrue(uris.contains("db://records/patients/" + id), uris.toString());
        }
        var alice = as("alice");
        var aliceUris = new ArrayList<String>();
        cursor = null;
        pages = 0;
        do {
            var page = alice.listResources(cursor == null ? McpSchema.FIRST_PAGE : cursor);
            page.resources().forEach(r -> aliceUris.add(r.uri()));
            cursor = page.nextCursor();
        } while (cursor != null && ++pages < 100);
        assertTrue(aliceUris.contains("git://handbook/main/README.md"));
        assertTrue(aliceUris.stream().noneMatch(u -> u.startsWith("db://records/")), "records are not listed for alice");
        assertTrue(aliceUris.contains("db://probe/answer"));
    }

    @Test
    void readsGitTextAndBinaryAtABranchWithASlash() {
        var carol = as("carol");
        assertEquals("# Handbook\n", text(carol.readResource(new McpSchema.ReadResourceRequest("git://handbook/main/README.md"))));
        assertEquals("# Handbook\n", text(carol.readResource(new McpSchema.ReadResourceRequest("git://handbook/release:2.x/README.md"))));
        var blob = (McpSchema.BlobResourceContents) carol.readResource(
                new McpSchema.ReadResourceRequest("git://handbook/main/img/logo.png")).contents().get(0);
        assertEquals("image/png", blob.mimeType());
        assertArrayEquals(ProvidersProfile.LOGO, Base64.getDecoder().decode(blob.blob()));
    }

    @Test
    void readsDatabaseRowsAsJsonAndCsvUnderPolicy() {
        var bob = as("bob");
        var row = (McpSchema.TextResourceContents) bob.readResource(
                new McpSchema.ReadResourceRequest("db://records/patients/3")).contents().get(0);
        assertEquals("application/json", row.mimeType());
        assertEquals("{\"id\":3,\"name\":\"Grace Hopper\",\"ward\":\"south\"}", row.text());
        assertEquals("id,name\r\n5,Katherine Johnson\r\n6,Edsger Dijkstra\r\n",
                text(bob.readResource(new McpSchema.ReadResourceRequest("db://records/wards/east/patients.csv"))));
        var denied = McpClients.expectError(() -> as("alice").readResource(new McpSchema.ReadResourceRequest("db://records/patients/3")));
        assertEquals(-32003, denied.getJsonRpcError().code());
    }

    @Test
    void aMountOnTheServersDefaultDatasourceServesWhileTheAuditLogKeepsWriting() {
        var bob = as("bob");
        for (int i = 0; i < 25; i++) {
            // Each read commits two audit records through the same pool (a refused audit write would be -32005).
            assertEquals("[{\"answer\":42}]", text(bob.readResource(new McpSchema.ReadResourceRequest("db://probe/answer"))));
        }
        assertEquals("# Handbook\n", text(bob.readResource(new McpSchema.ReadResourceRequest("git://handbook/main/README.md"))));
    }

    @Test
    void templatesAreListed() {
        var templates = as("bob").listResourceTemplates().resourceTemplates().stream()
                .map(McpSchema.ResourceTemplate::uriTemplate).toList();
        assertTrue(templates.contains("git://handbook/{ref}/{+path}"), templates.toString());
        assertTrue(templates.contains("db://records/patients/{id}"), templates.toString());
        assertTrue(templates.contains("db://records/wards/{ward}/patients.csv"), templates.toString());
    }

    @Test
    void hostileInputIsNotFoundOrRefused() {
        var bob = as("bob");
        for (String u : List.of("db://records/patients/1%20OR%201=1", "db://records/patients/1;DROP%20TABLE%20patients",
                "db://records/wards/x'%20OR%20'1'='1/patients.csv", "git://handbook/main/.git/config",
                "git://handbook/main/..%2F..%2Fetc%2Fpasswd", "git://handbook/a:..:..:config/x",
                "git://handbook/main/../../../etc/passwd")) {
            var err = McpClients.expectError(() -> {
                var r = bob.readResource(new McpSchema.ReadResourceRequest(u));
                // A ward that matches nothing is an empty CSV, not an error: accept only that.
                if (u.contains("wards") && text(r).equals("id,name\r\n")) {
                    throw new io.modelcontextprotocol.spec.McpError(new McpSchema.JSONRPCResponse.JSONRPCError(-32002, "empty", null));
                }
            });
            int code = err.getJsonRpcError().code();
            assertTrue(code == -32002 || code == -32602 || code == -32003, u + " gave " + code);
        }
    }
}
