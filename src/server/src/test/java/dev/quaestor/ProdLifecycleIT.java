package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.McpHttp.Answer;
import dev.quaestor.support.Modern;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged server's life as Kubernetes runs it (deploy/): a migration Job migrates as the owner and exits,
 * the Deployment's pod then runs with migrations off and only the application role's credentials, logs JSON lines
 * that carry neither tokens nor content, and on SIGTERM finishes what is in flight, commits its audit queue and
 * signs the final chain head before it exits.
 */
class ProdLifecycleIT {

    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";

    @Test
    void migrateJobThenAppRoleServerLogsJsonWithoutSecretsAndFlushesOnSigterm() throws Exception {
        new TestIssuer().start();
        String dbUrl = ScratchDatabase.recreate("lifecycle");
        Path key = SigningKeyFile.write(Path.of("target", "lifecycle-audit-key.pem"));
        Map<String, String> common = Map.of(
                "QUAESTOR_OIDC_ISSUER", TestIssuer.issuer(),
                "QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE,
                "QUAESTOR_DB_URL", dbUrl,
                "QUAESTOR_DB_APP_ROLE", "quaestor_app",
                "QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString(),
                "QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString());

        // 1. The migration Job: the owner's credentials, QUARKUS_INIT_AND_EXIT=true, exits 0, serves nothing. As in
        // deploy/base/migrate-job.yaml it has no signing key, no policies, no content and no route to the IdP.
        var migrateEnv = new java.util.HashMap<>(common);
        migrateEnv.put("QUAESTOR_OIDC_ISSUER", "http://127.0.0.1:9/realms/unreachable");
        migrateEnv.put("QUAESTOR_AUDIT_SIGNING_KEY_FILE", "/nonexistent/audit-signing-key");
        migrateEnv.put("QUAESTOR_POLICIES_PATH", "/nonexistent/policies");
        migrateEnv.put("QUAESTOR_MOUNTS_DOCS_ROOT", "/nonexistent/docs");
        migrateEnv.put("QUAESTOR_MOUNTS_FIXTURES_FILE", "/nonexistent/fixtures.yaml");
        migrateEnv.put("QUAESTOR_DB_USER", "postgres");
        migrateEnv.put("QUAESTOR_DB_PASSWORD", "trust");
        migrateEnv.put("QUARKUS_INIT_AND_EXIT", "true");
        var migrate = new ServerProcess("lifecycle-migrate", migrateEnv);
        Files.deleteIfExists(migrate.log());
        long t0 = System.nanoTime();
        assertEquals(0, migrate.runToExit(Duration.ofSeconds(90)), "the migration run exits cleanly: " + Files.readString(migrate.log()));
        System.out.printf("migration run took %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var s = c.createStatement()) {
            var rs = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success");
            rs.next();
            assertTrue(rs.getInt(1) >= 3, "the migrations ran");
            rs = s.executeQuery("SELECT count(*) FROM audit_entry");
            rs.next();
            assertEquals(0, rs.getInt(1), "the migration run writes no audit records (it is no replica)");
        }

        // 2. The pod: migrations off, the application role only (no owner credentials at all).
        var podEnv = new java.util.HashMap<>(common);
        podEnv.put("QUAESTOR_DB_USER", "quaestor_app");
        podEnv.put("QUAESTOR_DB_PASSWORD", "trust");
        podEnv.put("QUAESTOR_MIGRATE_AT_START", "false");
        podEnv.put("QUAESTOR_SHUTDOWN_DELAY", "2S");
        var pod = new ServerProcess("lifecycle-pod", podEnv);
        Files.deleteIfExists(pod.log());
        pod.start();
        List<Answer> answers = new CopyOnWriteArrayList<>();
        String token = TestIssuer.tokenFor("alice");
        try {
            pod.awaitReady(Duration.ofSeconds(60));
            String session = McpHttp.initialize(pod.url(), token);
            Answer first = McpHttp.read(pod.url(), token, session, HANDBOOK);
            assertTrue(first.servedContent(), "the app role serves: " + first.body());
            answers.add(first);

            // 3. SIGTERM while a client keeps reading: whatever got content has both records, and the head is signed.
            ExecutorService pool = Executors.newFixedThreadPool(4);
            for (int t = 0; t < 4; t++) {
                pool.submit(() -> {
                    long until = System.nanoTime() + Duration.ofSeconds(6).toNanos();
                    while (System.nanoTime() < until) {
                        try {
                            answers.add(McpHttp.read(pod.url(), token, session, HANDBOOK));
                        } catch (Exception refusedOnceStopped) {
                            answers.add(new Answer(0, null, null, null));
                        }
                    }
                    return null;
                });
            }
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> answers.size() >= 40);
            assertEquals(-32003, McpHttp.read(pod.url(), token, session, "file:///docs/home/bob/notes.md").errorCode());
            metricsUnderLoad(pod, token);
            // An open event stream: it delivers through the shutdown delay, then ends, and holds the stop no longer.
            var stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pod.url() + "/mcp"))
                    .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                    .header("Mcp-Session-Id", session).GET().build(), HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, stream.statusCode());
            var streamEnded = new java.util.concurrent.CompletableFuture<Long>();
            Thread reader = new Thread(() -> {
                try {
                    stream.body().forEach(line -> { });
                } catch (java.io.UncheckedIOException cut) {
                    // ended by a reset rather than its last chunk: still an end
                }
                streamEnded.complete(System.nanoTime());
            }, "lifecycle-stream");
            reader.setDaemon(true);
            reader.start();
            // And a 2026-07-28 listen stream: it ends the way its revision ends it, with the listen request's result.
            var listen = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pod.url() + "/mcp"))
                    .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", Modern.VERSION)
                    .header("Mcp-Method", "subscriptions/listen")
                    .POST(HttpRequest.BodyPublishers.ofString(Modern.body("listen:1", "subscriptions/listen",
                            "\"notifications\":{\"resourceSubscriptions\":[\"" + HANDBOOK + "\"]}"))).build(),
                    HttpResponse.BodyHandlers.ofLines());
            assertEquals(200, listen.statusCode());
            var listenLines = new java.util.concurrent.CompletableFuture<List<String>>();
            Thread listener = new Thread(() -> {
                try {
                    listenLines.complete(listen.body().toList());
                } catch (java.io.UncheckedIOException cut) {
                    listenLines.completeExceptionally(cut);
                }
            }, "lifecycle-listen");
            listener.setDaemon(true);
            listener.start();
            long sigterm = System.nanoTime();
            pod.stop();
            long stopMillis = (System.nanoTime() - sigterm) / 1_000_000;
            long streamMillis = (streamEnded.get(5, TimeUnit.SECONDS) - sigterm) / 1_000_000;
            System.out.printf("SIGTERM with an open event stream: the stream ended after %d ms, the process after %d ms%n",
                    streamMillis, stopMillis);
            assertTrue(streamMillis >= 2_000, "the stream was kept through the shutdown delay (2 s): " + streamMillis + " ms");
            assertTrue(stopMillis < 12_000, "an open stream does not hold the stop for the shutdown timeout (20 s): "
                    + stopMillis + " ms");
            String lastData = listenLines.get(5, TimeUnit.SECONDS).stream().filter(l -> l.startsWith("data:"))
                    .reduce((a, b) -> b).orElseThrow();
            var end = new ObjectMapper().readTree(lastData.substring("data:".length()));
            assertEquals("listen:1", end.path("id").asText(), "the listen stream ends with its request's result: " + lastData);
            assertEquals("complete", end.at("/result/resultType").asText(), lastData);
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        } finally {
            pod.stop();
        }
        // 143 = 128 + SIGTERM: the JVM ran its shutdown hooks; 137 would mean it had to be killed.
        assertTrue(pod.exitValue() == 0 || pod.exitValue() == 143, "SIGTERM ends the server by itself: " + pod.exitValue());

        List<String> served = new ArrayList<>();
        answers.stream().filter(Answer::servedContent).forEach(a -> served.add(a.requestId()));
        assertTrue(served.size() > 10, "reads were served before and during the shutdown delay: " + served.size());
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var q = c.prepareStatement("SELECT count(DISTINCT kind) FROM audit_entry WHERE request_id = ? AND kind IN ('DECISION','OUTCOME')");
                var s = c.createStatement()) {
            for (String id : served) {
                q.setString(1, id);
                var rs = q.executeQuery();
                rs.next();
                assertEquals(2, rs.getInt(1), "request " + id + " returned content and has both records");
            }
            var rs = s.executeQuery("SELECT (SELECT max(seq) FROM audit_entry WHERE chain_id = 'lifecycle-pod'), "
                    + "(SELECT max(seq) FROM audit_checkpoint WHERE chain_id = 'lifecycle-pod')");
            rs.next();
            assertEquals(rs.getLong(1), rs.getLong(2), "the final chain head is signed at shutdown");
        }

        // 4. The log: JSON lines only, and never the token or the bytes served.
        var json = new ObjectMapper();
        List<String> lines = Files.readAllLines(pod.log()).stream().filter(l -> !l.isBlank()).toList();
        assertFalse(lines.isEmpty());
        String content = Files.readString(Repo.CONTENT.resolve("docs/handbook/welcome.md"));
        String signature = token.substring(token.lastIndexOf('.') + 1);
        for (String line : lines) {
            assertTrue(json.readTree(line).has("message"), "a JSON log record: " + line);
            assertFalse(line.contains(signature), "no token in the log: " + line);
            for (String contentLine : content.lines().filter(l -> l.length() > 20).toList()) {
                assertFalse(line.contains(contentLine), "no content in the log: " + line);
            }
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("\"loggerName\"")), "structured fields present");
    }

    /**
     * Production without the database password: the start stops before Flyway or a datasource is created, and the
     * log names the variable to set rather than a Quarkus or Flyway key the operator never wrote.
     */
    @Test
    void withoutTheDatabasePasswordTheStartNamesTheVariable() throws Exception {
        new TestIssuer().start();
        String dbUrl = ScratchDatabase.recreate("lifecycle_no_password");
        Path key = SigningKeyFile.write(Path.of("target", "lifecycle-no-password-key.pem"));
        var env = Map.of(
                "QUAESTOR_OIDC_ISSUER", TestIssuer.issuer(),
                "QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE,
                "QUAESTOR_DB_URL", dbUrl,
                "QUAESTOR_DB_USER", "postgres",
                "QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString(),
                "QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString());
        try (var pod = new ServerProcess("lifecycle-no-password", env)) {
            Files.deleteIfExists(pod.log());
            assertNotEquals(0, pod.runToExit(Duration.ofSeconds(90)));
            String log = Files.readString(pod.log());
            assertTrue(log.contains("QUAESTOR_DB_PASSWORD is not set"), "the log names the variable: " + log);
            assertFalse(log.contains("Username and password must be defined"), "Flyway never got that far");
        }
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var s = c.createStatement()) {
            var rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'flyway_schema_history'");
            rs.next();
            assertEquals(0, rs.getInt(1), "nothing was migrated");
        }
    }

    /**
     * Production with the database set but no issuer, no audience and no signing key file: the start stops before
     * Flyway migrates, and one log line names all three variables.
     */
    @Test
    void withTheDatabaseSetButNoIdentityOrKeyTheStartNamesThemAllBeforeMigrating() throws Exception {
        String dbUrl = ScratchDatabase.recreate("lifecycle_no_identity");
        var env = Map.of(
                "QUAESTOR_DB_URL", dbUrl,
                "QUAESTOR_DB_USER", "postgres",
                "QUAESTOR_DB_PASSWORD", "trust",
                "QUAESTOR_AUDIT_SIGNING_KEY_FILE", "/nonexistent/audit-signing-key",
                "QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString());
        try (var pod = new ServerProcess("lifecycle-no-identity", env)) {
            Files.deleteIfExists(pod.log());
            assertNotEquals(0, pod.runToExit(Duration.ofSeconds(90)));
            List<String> lines = Files.readAllLines(pod.log());
            // Logged while the container is set up, before the JSON formatter is installed: a plain line of its own.
            String message = lines.stream().filter(l -> l.contains("Required settings missing")).findFirst()
                    .orElseThrow(() -> new AssertionError("no log line that names the settings: " + lines));
            assertTrue(message.contains(": QUAESTOR_OIDC_ISSUER, QUAESTOR_OIDC_AUDIENCE, QUAESTOR_AUDIT_SIGNING_KEY_FILE. "), message);
            assertFalse(String.join("\n", lines).contains("Migrating schema"), "Flyway never got that far");
        }
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var s = c.createStatement()) {
            var rs = s.executeQuery("SELECT count(*) FROM information_schema.tables WHERE table_name = 'flyway_schema_history'");
            rs.next();
            assertEquals(0, rs.getInt(1), "nothing was migrated");
        }
    }

    /**
     * /q/metrics while the client loop runs: refused to the reader's token, and to Prometheus's every family operators
     * need, with no URI or subject as a label.
     */
    private static void metricsUnderLoad(ServerProcess pod, String readerToken) throws Exception {
        assertEquals(403, scrape(pod, readerToken).statusCode());
        var r = scrape(pod, TestIssuer.tokenFor("prometheus"));
        assertEquals(200, r.statusCode());
        String metrics = r.body();
        Files.writeString(Path.of("target", "metrics-under-load.txt"), metrics);
        for (String family : List.of(
                "quaestor_requests_seconds_count{method=\"resources/read\",outcome=\"ok\"}",
                "quaestor_requests_seconds_count{method=\"resources/read\",outcome=\"denied\"}",
                "quaestor_policy_decisions_total{action=\"read\",decision=\"ALLOW\"}",
                "quaestor_policy_decisions_total{action=\"read\",decision=\"DENY\"}",
                "quaestor_ratelimit_decisions_total{",
                "quaestor_ratelimit_latency_seconds_count{",
                "quaestor_audit_queue_depth",
                "quaestor_audit_commit_seconds_count",
                "quaestor_provider_calls_seconds_count{mount=\"docs\",outcome=\"ok\"}",
                "quaestor_identity_token_cache_total{result=\"hit\"}",
                "http_server_requests_seconds_count{")) {
            assertTrue(metrics.contains(family), "metric " + family + " in:\n" + metrics);
        }
        for (String line : metrics.lines().filter(l -> l.startsWith("quaestor_")).toList()) {
            assertFalse(line.contains("file:") || line.contains("alice") || line.contains("/docs/"), "bounded labels: " + line);
        }
    }

    private static HttpResponse<String> scrape(ServerProcess pod, String token) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(pod.url() + "/q/metrics"))
                .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
    }
}
