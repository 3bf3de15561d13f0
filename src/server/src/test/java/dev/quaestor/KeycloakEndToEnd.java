package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end with a real Keycloak 26 that imported deploy/keycloak/quaestor-realm.json, and the packaged server in
 * production mode trusting it. Not part of {@code ./mvnw verify} (the name matches neither surefire's nor
 * failsafe's patterns): {@code scripts/keycloak-e2e.sh} starts Keycloak, runs this class, and stops Keycloak. It
 * fails, rather than skips, when Keycloak is not there.
 */
class KeycloakEndToEnd {

    private static final String ISSUER = System.getProperty("quaestor.e2e.issuer", "http://127.0.0.1:8180/realms/quaestor");
    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";
    private static final String TRIAL_SUMMARY = "file:///docs/trials/onco-734/summary.md";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ServerProcess server;

    @BeforeAll
    static void start() throws Exception {
        var discovery = HTTP.send(HttpRequest.newBuilder(URI.create(ISSUER + "/.well-known/openid-configuration")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, discovery.statusCode(), "Keycloak answers at " + ISSUER + " (scripts/keycloak.sh start)");
        String dbUrl = ScratchDatabase.recreate("keycloak");
        Path key = SigningKeyFile.write(Path.of("target", "keycloak-e2e-audit-key.pem"));
        server = new ServerProcess("keycloak-e2e", Map.of(
                "QUAESTOR_OIDC_ISSUER", ISSUER,
                "QUAESTOR_OIDC_AUDIENCE", "quaestor",
                "QUAESTOR_DB_URL", dbUrl,
                "QUAESTOR_DB_USER", "quaestor_app",
                "QUAESTOR_DB_PASSWORD", "trust",
                "QUAESTOR_DB_OWNER_USER", "postgres",
                "QUAESTOR_DB_OWNER_PASSWORD", "trust",
                "QUAESTOR_DB_APP_ROLE", "quaestor_app",
                "QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString(),
                "QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString()));
        server.start();
        server.awaitReady(Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void clientCredentialsAndUserTokensReadAnAllowedResourceWithTheMcpSdk() throws Exception {
        String serviceToken = token("quaestor-mcp-client", "quaestor-dev-secret", Map.of("grant_type", "client_credentials"));
        assertTrue(claims(serviceToken).path("aud").toString().contains("quaestor"), "the audience mapper adds aud=quaestor");
        try (McpSyncClient client = McpClients.connect(new URL(server.url()), serviceToken)) {
            var contents = client.readResource(new McpSchema.ReadResourceRequest(HANDBOOK)).contents();
            assertEquals(1, contents.size());
            assertTrue(((McpSchema.TextResourceContents) contents.get(0)).text().contains("research handbook"));
        }
        String alice = userToken("alice");
        assertTrue(claims(alice).path("realm_access").path("roles").toString().contains("principal-investigator"));
        try (McpSyncClient client = McpClients.connect(new URL(server.url()), alice)) {
            var contents = client.readResource(new McpSchema.ReadResourceRequest(TRIAL_SUMMARY)).contents();
            assertFalse(((McpSchema.TextResourceContents) contents.get(0)).text().isBlank());
        }
    }

    @Test
    void aTokenForAnotherAudienceIsRefusedWith401() throws Exception {
        String other = token("other-service", "other-dev-secret", Map.of("grant_type", "client_credentials"));
        assertFalse(claims(other).path("aud").toString().contains("quaestor"), "issued for other-api: " + claims(other));
        var r = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + "/mcp"))
                .header("Authorization", "Bearer " + other)
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                        + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(401, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Bearer"));
    }

    @Test
    void aUserWithoutTheRoleGetsPermissionDenied() throws Exception {
        String dave = userToken("dave");
        try (McpSyncClient client = McpClients.connect(new URL(server.url()), dave)) {
            var error = McpClients.expectError(() -> client.readResource(new McpSchema.ReadResourceRequest(TRIAL_SUMMARY)));
            assertEquals(-32003, error.getJsonRpcError().code());
            // The same user still reads what everyone may read: it is the role that is missing, not the login.
            assertFalse(client.readResource(new McpSchema.ReadResourceRequest(HANDBOOK)).contents().isEmpty());
        }
    }

    @Test
    void anAuditorSearchesAndVerifiesTheAuditLogAndANonAuditorCannot() throws Exception {
        String alice = userToken("alice");
        try (McpSyncClient client = McpClients.connect(new URL(server.url()), alice)) {
            client.readResource(new McpSchema.ReadResourceRequest(HANDBOOK));
        }
        String auditor = userToken("auditor");
        var search = get("/audit/search?uriPrefix=file:///docs/handbook/&limit=20", auditor);
        assertEquals(200, search.statusCode(), search.body());
        assertTrue(JSON.readTree(search.body()).path("records").size() > 0, search.body());
        var verify = get("/audit/verify", auditor);
        assertEquals(200, verify.statusCode(), verify.body());
        assertTrue(JSON.readTree(verify.body()).path("verified").asBoolean(), verify.body());

        assertEquals(403, get("/audit/search?limit=1", alice).statusCode());
        assertEquals(403, get("/audit/verify", alice).statusCode());
    }

    @Test
    void prometheusScrapesWithItsOwnClientAndAnMcpClientsTokenIsRefused() throws Exception {
        String prometheus = token("prometheus", "prometheus-dev-secret", Map.of("grant_type", "client_credentials"));
        assertTrue(claims(prometheus).path("realm_access").path("roles").toString().contains("quaestor-metrics"),
                claims(prometheus).toString());
        var scrape = get("/q/metrics", prometheus);
        assertEquals(200, scrape.statusCode(), scrape.body());
        assertTrue(scrape.body().contains("quaestor_audit_queue_depth"));
        assertEquals(403, get("/q/metrics", userToken("alice")).statusCode(), "an AI client's token reads no metrics");
        // Prometheus's token opens nothing else: it has no role the policies or the staff APIs know.
        assertEquals(403, get("/audit/search?limit=1", prometheus).statusCode());
    }

    private static HttpResponse<String> get(String path, String token) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + path)).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String userToken(String user) throws Exception {
        return token("quaestor-mcp-client", "quaestor-dev-secret",
                Map.of("grant_type", "password", "username", user, "password", user, "scope", "openid resources:read"));
    }

    private static String token(String client, String secret, Map<String, String> params) throws Exception {
        var form = new LinkedHashMap<>(params);
        form.put("client_id", client);
        form.put("client_secret", secret);
        String body = form.entrySet().stream()
                .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
        var r = HTTP.send(HttpRequest.newBuilder(URI.create(ISSUER + "/protocol/openid-connect/token"))
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), "token for " + client + ": " + r.body());
        return JSON.readTree(r.body()).path("access_token").asText();
    }

    private static JsonNode claims(String jwt) throws Exception {
        return JSON.readTree(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]));
    }
}
