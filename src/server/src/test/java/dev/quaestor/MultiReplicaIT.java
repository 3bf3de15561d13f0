package dev.quaestor;

import dev.quaestor.support.Wait;
import dev.quaestor.support.Repo;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.support.ConfigMapVolume;
import dev.quaestor.support.LocalRedis;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.McpHttp.Answer;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three production-mode replicas on loopback share one PostgreSQL and one Redis, the stand-in for
 * a Kubernetes deployment: a limit holds across all three together, a policy change reaches all
 * three, and a rolling restart under load leaves no served read without its audit records.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiReplicaIT {

    private static String dbUrl;
    private static final Path POLICIES = Path.of("target", "replica-policies");
    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";
    private static final int LIMIT = 50;
    /** A copy of content/docs the replicas serve, so a test may change files under them. */
    private static final Path DOCS = Path.of("target", "replica-docs").toAbsolutePath();

    private static final Map<String, String> BASE_POLICIES = new java.util.TreeMap<>();
    private static ConfigMapVolume policies;
    private static LocalRedis redis;
    private static final List<ServerProcess> replicas = new ArrayList<>();

    @BeforeAll
    static void startReplicas() throws Exception {
        new TestIssuer().start();
        redis = new LocalRedis();
        dbUrl = ScratchDatabase.recreate("replicas");
        // Each replica serves its own copy of the docs, so a test can change a file under them.
        copyTree(Repo.CONTENT.resolve("docs"), DOCS);
        // The replicas read their policies from a directory laid out and updated as the kubelet mounts a ConfigMap.
        try (Stream<Path> files = Files.list(Repo.POLICIES)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                BASE_POLICIES.put(f.getFileName().toString(), Files.readString(f));
            }
        }
        BASE_POLICIES.put("zz-replica-limit.yaml", """
                apiVersion: quaestor/v1
                kind: Policy
                limits:
                  - id: handbook-per-user
                    key: subject
                    capacity: %d
                    refill: {tokens: %d, period: 1m}
                    resources: ["file:///docs/handbook/**"]
                """.formatted(LIMIT, LIMIT));
        policies = new ConfigMapVolume(POLICIES);
        policies.write(BASE_POLICIES);
        Path key = SigningKeyFile.write(Path.of("target", "replica-audit-key.pem"));
        Map<String, String> env = Map.ofEntries(
                Map.entry("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer()),
                Map.entry("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE),
                Map.entry("QUAESTOR_DB_URL", dbUrl),
                Map.entry("QUAESTOR_DB_USER", "quaestor_app"),
                Map.entry("QUAESTOR_DB_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_OWNER_USER", "postgres"),
                Map.entry("QUAESTOR_DB_OWNER_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_APP_ROLE", "quaestor_app"),
                Map.entry("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString()),
                Map.entry("QUAESTOR_POLICIES_PATH", POLICIES.toString()),
                Map.entry("QUAESTOR_MOUNTS_DOCS_ROOT", DOCS.toString()),
                Map.entry("QUAESTOR_RATELIMIT_BACKEND", "redis"),
                Map.entry("QUAESTOR_RATELIMIT_REDIS_URL", redis.url()));
        for (int i = 1; i <= 3; i++) {
            replicas.add(new ServerProcess("replica-" + i, env));
        }
        for (ServerProcess r : replicas) {
            r.start();
        }
        for (ServerProcess r : replicas) {
            r.awaitReady(Duration.ofSeconds(120));   // generous: three JVMs start at once on a shared machine
        }
    }

    @AfterAll
    static void stopAll() throws Exception {
        for (ServerProcess r : replicas) {
            r.stop();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    /** Collects the data lines of an SSE stream in the background. */
    private static List<String> listen(String baseUrl, String token, String session) throws Exception {
        var lines = new CopyOnWriteArrayList<String>();
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(baseUrl + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        Thread t = new Thread(() -> {
            try {
                response.body().forEach(lines::add);
                lines.add("(stream ended)");
            } catch (java.io.UncheckedIOException e) {
                lines.add("(stream closed: " + e.getCause().getMessage() + ")");
            }
        }, "sse-" + baseUrl);
        t.setDaemon(true);
        t.start();
        return lines;
    }

    /** Waits until the client has had {@code more} answers after those it has now. */
    private static void awaitAnswers(List<?> answers, int more) {
        int target = answers.size() + more;
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                .until(() -> answers.size() >= target);
    }

    private static long updates(List<String> lines, String uri) {
        return lines.stream().filter(l -> l.contains("notifications/resources/updated") && l.contains(uri)).count();
    }

    @Test
    @Order(0)
    void aSubscriptionMadeOnOneReplicaIsDeliveredByTheReplicaHoldingTheStream() throws Exception {
        String bob = TestIssuer.tokenFor("bob");
        String session = McpHttp.initialize(url(0), bob);
        List<String> stream = listen(url(2), bob, session);
        var subscribe = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(1) + "/mcp"))
                .header("Authorization", "Bearer " + bob).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/subscribe\","
                        + "\"params\":{\"uri\":\"" + HANDBOOK + "\"}}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, subscribe.statusCode(), subscribe.body());
        assertTrue(subscribe.body().contains("\"result\":{}"), subscribe.body());

        Path file = DOCS.resolve("handbook").resolve("welcome.md");
        Files.writeString(file, Files.readString(file) + "\n");
        Wait.holdsWithin(Duration.ofSeconds(2), () -> updates(stream, HANDBOOK) != 0);
        assertEquals(1, updates(stream, HANDBOOK), "replica 3 (holding the stream) delivers a subscription made on replica 2: " + stream);

        // A new stream on replica 1 takes over: replica 3's stream ends at its next check, and only the new one delivers.
        List<String> moved = listen(url(0), bob, session);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> stream.stream().anyMatch(l -> l.startsWith("(stream ")));
        Files.writeString(file, Files.readString(file) + "\n");
        Wait.holdsWithin(Duration.ofSeconds(2), () -> updates(moved, HANDBOOK) != 0);
        assertEquals(1, updates(moved, HANDBOOK), "the replica now holding the stream delivers: " + moved);
        assertEquals(1, updates(stream, HANDBOOK), "the replaced stream gets nothing more");
    }

    private static String url(int i) {
        return replicas.get(i % replicas.size()).url();
    }

    @Test
    @Order(1)
    void oneLimitHoldsAcrossAllReplicasAndFailsClosedWithoutRedis() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String aliceSession = McpHttp.initialize(url(0), alice);
        long start = System.nanoTime();
        int admitted = 0;
        int rejected = 0;
        for (int i = 0; i < 3 * LIMIT; i++) {
            Answer a = McpHttp.read(url(i), alice, aliceSession, HANDBOOK);
            if (a.servedContent()) {
                admitted++;
            } else {
                assertEquals(429, a.status(), "only rate-limit rejections: " + a.body());
                assertEquals(-32004, a.errorCode());
                assertTrue(Integer.parseInt(a.retryAfter()) >= 1);
                rejected++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long refilled = (long) Math.ceil(seconds * LIMIT / 60.0);
        System.out.printf("three replicas, one subject: %d admitted, %d rejected of %d in %.1f s (limit %d/min)%n",
                admitted, rejected, 3 * LIMIT, seconds, LIMIT);
        assertTrue(admitted >= LIMIT, "the burst is admitted: " + admitted);
        assertTrue(admitted <= LIMIT + refilled, "at most the capacity plus what refilled meanwhile (" + refilled
                + ") across the three replicas, not three times it: " + admitted);

        String bob = TestIssuer.tokenFor("bob");
        String bobSession = McpHttp.initialize(url(1), bob);
        for (int i = 0; i < 20; i++) {
            assertTrue(McpHttp.read(url(i), bob, bobSession, HANDBOOK).servedContent(), "another subject is unaffected");
        }

        // Opening a session pays a token too, so carol opens hers while the limit can still be checked.
        String carol = TestIssuer.tokenFor("carol");
        String carolSession = McpHttp.initialize(url(2), carol);
        redis.stop();
        try {
            assertEquals(503, McpHttp.initializeAnswer(url(1), TestIssuer.tokenFor("erin")).statusCode(),
                    "no session is opened unchecked either");
            for (int i = 0; i < 6; i++) {
                long t = System.nanoTime();
                Answer a = McpHttp.read(url(i), carol, carolSession, HANDBOOK);
                long ms = (System.nanoTime() - t) / 1_000_000;
                assertFalse(a.servedContent(), "nothing is served unchecked by a fail-closed limit");
                assertEquals(503, a.status());
                assertEquals(-32005, a.errorCode());
                assertTrue(ms < 2000, "refused within the bound, took " + ms + " ms");
            }
        } finally {
            redis.start();
        }
        String dave = TestIssuer.tokenFor("dave");
        for (int r = 0; r < 3; r++) {
            int replica = r;
            String[] session = new String[1];
            org.awaitility.Awaitility.await("replica " + r + " opens a session and serves again once Redis is back")
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
                        if (session[0] == null) {
                            var opened = McpHttp.initializeAnswer(url(replica), dave);
                            if (opened.statusCode() != 200) {
                                return false;
                            }
                            session[0] = opened.headers().firstValue("Mcp-Session-Id").orElseThrow();
                        }
                        return McpHttp.read(url(replica), dave, session[0], HANDBOOK).servedContent();
                    });
        }
    }

    @Test
    @Order(2)
    void aPolicyChangeReachesAllReplicasWithinFiveSeconds() throws Exception {
        String carol = TestIssuer.tokenFor("carol");
        String session = McpHttp.initialize(url(0), carol);
        String bobsNotes = "file:///docs/home/bob/notes.md";
        for (int i = 0; i < 3; i++) {
            assertEquals(-32003, McpHttp.read(url(i), carol, session, bobsNotes).errorCode());
        }
        var changed = new java.util.TreeMap<>(BASE_POLICIES);
        changed.put("zz-grant.yaml", """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: carol-covers-for-bob
                    effect: allow
                    actions: [read]
                    resources: ["file:///docs/home/bob/notes.md"]
                    subjects: {subjects: [carol]}
                """);
        long written = System.nanoTime();
        policies.write(changed);     // the ConfigMap update, as the kubelet applies it: one atomic ..data swap
        try {
            for (int i = 0; i < 3; i++) {
                long ms = waitUntil(url(i), carol, session, bobsNotes, true);
                System.out.printf("%s applied the change %d ms after it was written%n", replicas.get(i).name(), ms);
                assertTrue((System.nanoTime() - written) / 1_000_000 < 5000, "within 5 s on every replica");
            }
        } finally {
            policies.write(BASE_POLICIES);
        }
        for (int i = 0; i < 3; i++) {
            waitUntil(url(i), carol, session, bobsNotes, false);
        }
    }

    private static long waitUntil(String url, String token, String session, String uri, boolean served) throws Exception {
        long start = System.nanoTime();
        if (Wait.holdsWithin(Duration.ofSeconds(10), Duration.ofMillis(100),
                () -> McpHttp.read(url, token, session, uri).servedContent() == served)) {
            return (System.nanoTime() - start) / 1_000_000;
        }
        throw new AssertionError(url + " did not " + (served ? "allow" : "deny") + " " + uri + " within 10 s");
    }

    @Test
    @Order(3)
    void aRollingRestartUnderLoadLosesNoAuditRecordAndEveryChainVerifies() throws Exception {
        List<String> users = List.of("alice", "bob", "carol", "dave", "erin");
        List<String> tokens = users.stream().map(TestIssuer::tokenFor).toList();
        List<String> sessions = new ArrayList<>();
        for (int u = 0; u < users.size(); u++) {
            sessions.add(McpHttp.initialize(url(u), tokens.get(u)));
        }
        // The front: round-robin over the replicas in rotation; a replica leaves it before it stops.
        List<ServerProcess> rotation = new CopyOnWriteArrayList<>(replicas);
        List<Answer> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread client = new Thread(() -> {
            for (int i = 0; running.get(); i++) {
                int u = i % users.size();
                try {
                    var r = rotation.get(i % rotation.size());
                    answers.add(McpHttp.read(r.url(), tokens.get(u), sessions.get(u), "file:///docs/public/logo.png"));
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    answers.add(new Answer(0, null, null, null));
                }
            }
        });
        client.start();
        awaitAnswers(answers, 20);
        for (ServerProcess r : replicas) {
            rotation.remove(r);
            awaitAnswers(answers, 2);          // the client is sequential: a request already sent to it has finished
            r.stop();
            r.start();
            r.awaitReady(Duration.ofSeconds(120));   // generous: three JVMs start at once on a shared machine
            rotation.add(r);
            awaitAnswers(answers, 20);
        }
        running.set(false);
        client.join(30_000);

        long served = answers.stream().filter(Answer::servedContent).count();
        long failed = answers.stream().filter(a -> !a.servedContent()).count();
        System.out.printf("rolling restart: %d reads served, %d not served%n", served, failed);
        assertTrue(served > 50, "the loop kept reading: " + served);

        int missing = 0;
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var q = c.prepareStatement("SELECT count(DISTINCT kind) FROM audit_entry WHERE request_id = ? AND kind IN ('DECISION','OUTCOME')")) {
            for (Answer a : answers) {
                if (a.servedContent()) {
                    q.setString(1, a.requestId());
                    var rs = q.executeQuery();
                    rs.next();
                    if (rs.getInt(1) != 2) {
                        missing++;
                    }
                }
            }
        }
        assertEquals(0, missing, "every read that returned content has both its records");

        String auditor = TestIssuer.tokenFor("auditor");
        var verify = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(0) + "/audit/verify"))
                .header("Authorization", "Bearer " + auditor).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, verify.statusCode(), verify.body());
        JsonNode report = new ObjectMapper().readTree(verify.body());
        System.out.println("audit verify after the rolling restart: " + verify.body());
        assertTrue(report.path("verified").asBoolean(), verify.body());
        for (ServerProcess r : replicas) {
            assertTrue(verify.body().contains(r.name()), "chain of " + r.name() + " is verified: " + verify.body());
        }
    }
}
