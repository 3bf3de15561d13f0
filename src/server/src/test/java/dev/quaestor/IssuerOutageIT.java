package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The identity provider cannot be reached (nothing listens at the issuer's address): no token can be checked, so a
 * request to /mcp, with a token or without, is answered 503 with Retry-After and is on record as
 * {@code issuer-unavailable}, rather than the security layer's bare 500.
 */
class IssuerOutageIT {

    @Test
    void anUnreachableIssuerIs503OnRecord() throws Exception {
        int closed;
        try (var s = new ServerSocket(0)) {
            closed = s.getLocalPort(); // free once closed: nothing listens there
        }
        new TestIssuer().start(); // signs the token sent below; the server does not trust it
        String dbUrl = ScratchDatabase.recreate("issuer_outage");
        Path key = SigningKeyFile.write(Path.of("target", "issuer-outage-audit-key.pem"));
        Map<String, String> env = Map.ofEntries(
                Map.entry("QUAESTOR_OIDC_ISSUER", "http://127.0.0.1:" + closed + "/realms/down"),
                Map.entry("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE),
                Map.entry("QUARKUS_OIDC_CONNECTION_DELAY", "1S"),
                Map.entry("QUAESTOR_DB_URL", dbUrl),
                Map.entry("QUAESTOR_DB_USER", "postgres"),
                Map.entry("QUAESTOR_DB_PASSWORD", "trust"),
                Map.entry("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString()),
                Map.entry("QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString()));
        var server = new ServerProcess("issuer-outage", env);
        try {
            server.start();
            server.awaitReady(Duration.ofSeconds(60));
            HttpClient http = HttpClient.newHttpClient();
            for (String token : new String[] {null, TestIssuer.tokenFor("alice")}) {
                var post = HttpRequest.newBuilder(URI.create(server.url() + "/mcp")).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"));
                if (token != null) {
                    post.header("Authorization", "Bearer " + token);
                }
                var r = http.send(post.build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(503, r.statusCode(), r.body());
                assertEquals("5", r.headers().firstValue("Retry-After").orElse(null));
                String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();
                try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                        var ps = c.prepareStatement("SELECT kind, outcome, decision FROM audit_entry WHERE request_id = ?")) {
                    ps.setString(1, requestId);
                    try (var rs = ps.executeQuery()) {
                        assertTrue(rs.next(), "the refusal is on record: " + requestId);
                        assertEquals("AUTHENTICATION", rs.getString(1));
                        assertEquals("issuer-unavailable", rs.getString(2));
                        assertEquals("DENY", rs.getString(3));
                    }
                }
            }
        } finally {
            server.stop();
        }
    }
}
