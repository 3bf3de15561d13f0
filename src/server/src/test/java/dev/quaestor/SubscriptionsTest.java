package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.RecordingTransport;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import dev.quaestor.support.Wait;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Subscriptions end to end with the official MCP Java SDK client: a file under a test-only
 * filesystem mount (file:///watched/) changes and the subscriber is told; revoking the subject's
 * access in a policy file stops the notifications.
 */
@QuarkusTest
@TestProfile(ProvidersProfile.class)
class SubscriptionsTest {

    private static final Path POLICY = TestPolicies.DIR.resolve("subscriptions-test.yaml");
    private static final String A = "file:///watched/a.txt";
    private static final String CONTROL = "file:///watched/control.txt";

    @TestHTTPResource("/")
    URL base;

    private final List<McpSyncClient> open = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        open.forEach(McpSyncClient::closeGracefully);
        open.clear();
        if (Files.deleteIfExists(POLICY)) {
            Wait.until("the test policy's removal", Duration.ofSeconds(10),
                    () -> !String.valueOf(policyHealth().get("files")).contains("subscriptions-test"));
        }
    }

    /** Grants dave read and subscribe on the listed URIs (globs), and waits until that set is active. */
    private static void grantDave(String... resources) throws Exception {
        writePolicy("""
                  - id: dave-watches
                    effect: allow
                    actions: [list, read, subscribe]
                    resources: [%s]
                    subjects: {subjects: [dave]}
                """.formatted(String.join(", ", List.of(resources).stream().map(r -> "\"" + r + "\"").toList())));
    }

    /** Writes the test policy with these rules and waits until it is active. */
    private static void writePolicy(String rules) throws Exception {
        String before = (String) policyHealth().get("revision");
        Files.writeString(POLICY, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                """ + rules);
        Wait.until("the policy edit to be active", Duration.ofSeconds(15), () -> "ok".equals(policyHealth().get("state"))
                && !before.equals(policyHealth().get("revision")));
    }

    private static Map<String, Object> policyHealth() {
        return dev.quaestor.support.ActivePolicy.state();
    }

    private record Watcher(McpSyncClient client, RecordingTransport recorder, List<String> updatedContents) {
        boolean listChangedSince(long nanoTime) {
            return recorder.notifications().stream().anyMatch(n -> n.nanoTime() >= nanoTime
                    && n.method().equals("notifications/resources/list_changed"));
        }

        /** Nano times at which notifications/resources/updated for this URI arrived. */
        List<Long> updates(String uri) {
            return recorder.notifications().stream()
                    .filter(n -> n.method().equals("notifications/resources/updated"))
                    .filter(n -> String.valueOf(n.params()).contains("uri=" + uri + "}") || String.valueOf(n.params()).contains("uri=" + uri + ","))
                    .map(RecordingTransport.Received::nanoTime).toList();
        }
    }

    private Watcher watcher(String user) throws Exception {
        var recorder = new RecordingTransport(McpClients.transport(base, TestIssuer.tokenFor(user)));
        var contents = new CopyOnWriteArrayList<String>();
        McpSyncClient client = McpClient.sync(recorder).requestTimeout(Duration.ofSeconds(20))
                .resourcesUpdateConsumer(list -> list.forEach(c -> {
                    if (c instanceof McpSchema.TextResourceContents t) {
                        contents.add(t.uri() + "=" + t.text());
                    }
                })).build();
        var init = client.initialize();
        assertTrue(init.capabilities().resources().subscribe(), "subscribe is declared");
        assertTrue(init.capabilities().resources().listChanged(), "listChanged is declared");
        open.add(client);
        var w = new Watcher(client, recorder, contents);
        awaitStreamOpen(w);
        return w;
    }

    /**
     * The SDK opens its GET stream in the background after initialize; a change made before the
     * stream is attached would be missed. A file created in the probe folder (anyone may list it)
     * gives every open stream a list_changed: once this client has one, its stream is live.
     */
    private static void awaitStreamOpen(Watcher w) throws Exception {
        Path probes = ProvidersProfile.WATCHED.resolve("probe");
        Files.createDirectories(probes);
        Wait.until("the client's stream to open", Duration.ofSeconds(10), () -> {
            long since = System.nanoTime();
            Path probe = Files.createTempFile(probes, "probe", ".txt");
            try {
                return Wait.holdsWithin(Duration.ofSeconds(1), () -> w.listChangedSince(since));
            } finally {
                Files.deleteIfExists(probe);
            }
        });
    }

    /**
     * Changes the control file and waits for its notification. Changes made before it went through the watcher,
     * their coalescing windows (which opened earlier) and the same stream first, so a notification that has not
     * arrived by then is not coming.
     */
    private static void throughThePipeline(Watcher w) throws Exception {
        int seen = w.updates(CONTROL).size();
        write(CONTROL, "barrier " + System.nanoTime() + "\n");
        Wait.until("the control file's notification", Duration.ofSeconds(2), () -> w.updates(CONTROL).size() > seen);
    }

    private static void write(String uri, String text) throws Exception {
        Files.writeString(ProvidersProfile.WATCHED.resolve(uri.substring("file:///watched/".length())), text);
    }

    @Test
    void changeIsNotifiedWithinTwoSecondsAndStopsWhenAccessIsRevoked() throws Exception {
        grantDave("file:///watched/**");
        Watcher dave = watcher("dave");
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(A));
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(CONTROL));

        long written = System.nanoTime();
        write(A, "a2\n");
        Wait.until("notifications/resources/updated for a.txt", Duration.ofSeconds(2), () -> !dave.updates(A).isEmpty());
        long latencyMs = TimeUnit.NANOSECONDS.toMillis(dave.updates(A).get(0) - written);
        assertTrue(latencyMs < 2_000, "notified after " + latencyMs + " ms");
        // The SDK re-reads an updated resource and hands the new content to the consumer.
        Wait.until("the SDK to read the new content", Duration.ofSeconds(5), () -> dave.updatedContents().contains(A + "=a2\n"));

        // Revoke a.txt (the control file stays granted); the reload must be active before the next change.
        grantDave(CONTROL);
        assertEquals(-32003, McpClients.expectError(() -> dave.client().readResource(new McpSchema.ReadResourceRequest(A)))
                .getJsonRpcError().code(), "the revocation is in force");
        int before = dave.updates(A).size();
        write(A, "a3\n");
        write(CONTROL, "c2\n");
        // Positive control: the pipeline is alive and delivers what dave may still read...
        Wait.until("the control file's notification", Duration.ofSeconds(2), () -> !dave.updates(CONTROL).isEmpty());
        // ...but nothing about the file he may no longer read, once a later change has been through the pipeline too.
        throughThePipeline(dave);
        assertEquals(before, dave.updates(A).size(), "no notification for a revoked URI: " + dave.recorder().notifications());
        assertFalse(dave.updatedContents().contains(A + "=a3\n"));
    }

    @Test
    void deniedSubscribeIsAuditedAndUnsubscribeStopsNotifications() throws Exception {
        grantDave("file:///watched/**");
        // bob has no grant: -32003, the same for an existing and a missing file, and audited.
        Watcher bob = watcher("bob");
        for (String uri : List.of(A, "file:///watched/no-such-file.txt")) {
            var error = McpClients.expectError(() -> bob.client().subscribeResource(new McpSchema.SubscribeRequest(uri)));
            assertEquals(-32003, error.getJsonRpcError().code());
            assertEquals("Permission denied", error.getJsonRpcError().message());
        }
        Instant since = Instant.now().minusSeconds(30);
        List<AuditRow> denials = AuditRow.list("kind = 'DECISION' and method = 'resources/subscribe' and subject = 'bob'"
                + " and event_time > ?", since);
        assertEquals(2, denials.size(), "both denials audited");
        denials.forEach(d -> {
            assertEquals("DENY", d.decision);
            assertEquals("subscribe", d.action);
            assertEquals(-32003, d.errorCode);
        });

        Watcher dave = watcher("dave");
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(A));
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(CONTROL));
        write(A, "a4\n");
        Wait.until("a.txt's notification while subscribed", Duration.ofSeconds(2), () -> !dave.updates(A).isEmpty());
        dave.client().unsubscribeResource(new McpSchema.UnsubscribeRequest(A));
        int before = dave.updates(A).size();
        write(A, "a5\n");
        write(CONTROL, "c3\n");
        Wait.until("the control file's notification", Duration.ofSeconds(2), () -> !dave.updates(CONTROL).isEmpty());
        throughThePipeline(dave);
        assertEquals(before, dave.updates(A).size(), "no notification after unsubscribe");

        List<AuditRow> outcomes = AuditRow.list("kind = 'OUTCOME' and subject = 'dave' and uri = ? and event_time > ?"
                + " order by id", A, since);
        assertTrue(outcomes.stream().anyMatch(o -> o.method.equals("resources/subscribe") && o.outcome.equals("ok")), outcomes.toString());
        assertTrue(outcomes.stream().anyMatch(o -> o.method.equals("resources/unsubscribe") && o.outcome.equals("ok")));
    }

    /**
     * A 2025 session's subscription is judged at each change for the identity of the stream that carries the
     * notification, not only for the one kept from the subscribe: a session whose client now holds a token
     * without the role that allowed the subscription (the same subject, the same session) hears nothing more of it.
     */
    @Test
    void aLostRoleStopsTheSessionsNotifications() throws Exception {
        writePolicy("""
                  - id: watchers-watch-a
                    effect: allow
                    actions: [read, subscribe]
                    resources: ["%s"]
                    subjects: {roles: [trial-watcher]}
                  - id: dave-watches-control
                    effect: allow
                    actions: [read, subscribe]
                    resources: ["%s"]
                    subjects: {subjects: [dave]}
                """.formatted(A, CONTROL));
        String watcher = TestIssuer.sign(TestIssuer.claims("dave").claim("tenant", "acme")
                .claim("realm_access", Map.of("roles", List.of("trial-watcher"))));
        String plain = TestIssuer.sign(TestIssuer.claims("dave").claim("tenant", "acme"));
        String session = Rpc.initialize(watcher, "2025-06-18");
        Rpc.call(watcher, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode(202);
        for (String uri : List.of(A, CONTROL)) {
            Rpc.call(watcher, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\""
                    + uri + "\"}}").statusCode(200).body(org.hamcrest.Matchers.containsString("\"result\""));
        }

        // While the stream is held with the role, a.txt's changes are notified.
        try (var stream = new RawStream(openBody(watcher, session))) {
            write(A, "role " + System.nanoTime() + "\n");
            Wait.until("a.txt's notification while the role is held", Duration.ofSeconds(2), () -> stream.updates(A) > 0);
        }

        // The client carries on with a token without the role: reading is refused, and the stream it opens now
        // is told of the control file's changes but not of a.txt's.
        Rpc.read(plain, session, A).statusCode(200).body(org.hamcrest.Matchers.containsString("-32003"));
        Instant since = Instant.now();
        String streamId;
        try (var stream = new RawStream(openBody(plain, session))) {
            streamId = streamRequestId;
            write(A, "no role " + System.nanoTime() + "\n");
            write(CONTROL, "c " + System.nanoTime() + "\n");
            Wait.until("the control file's notification", Duration.ofSeconds(2), () -> stream.updates(CONTROL) > 0);
            // A later change has been through the watcher, its window and the stream: a.txt's would have come by now.
            write(CONTROL, "barrier " + System.nanoTime() + "\n");
            Wait.until("the control file's second notification", Duration.ofSeconds(2), () -> stream.updates(CONTROL) > 1);
            assertEquals(0, stream.updates(A), "no notification for a URI the stream's holder may not read: " + stream.lines);
        }
        end(plain, session);
        List<AuditRow> notified = AuditRow.list("kind = 'NOTIFICATION' and subject = 'dave' and event_time >= ?"
                + " and method = 'notifications/resources/updated' order by id", since);
        assertTrue(notified.stream().anyMatch(n -> CONTROL.equals(n.uri) && "ALLOW".equals(n.decision)), notified.toString());
        assertTrue(notified.stream().noneMatch(n -> A.equals(n.uri)), "no record claims a notification for a.txt: " + notified);
        assertTrue(notified.stream().allMatch(n -> streamId.equals(n.requestId)), "under the stream's request id " + streamId
                + ": " + notified.stream().map(n -> n.requestId).toList());
    }

    /**
     * Subscribing again keeps one subscription and stores the identity that subscribed last with it: after access moves
     * from one role to another, a client that subscribes again with a token of the new role is notified again, though
     * the identity it first subscribed with no longer may be.
     */
    @Test
    void subscribingAgainStoresTheNewSubscriber() throws Exception {
        String rule = """
                  - id: watchers-watch-a
                    effect: allow
                    actions: [read, subscribe]
                    resources: ["%s"]
                    subjects: {roles: [%s]}
                """;
        writePolicy(rule.formatted(A, "trial-watcher"));
        String before = TestIssuer.sign(TestIssuer.claims("dave").claim("tenant", "acme")
                .claim("realm_access", Map.of("roles", List.of("trial-watcher"))));
        String after = TestIssuer.sign(TestIssuer.claims("dave").claim("tenant", "acme")
                .claim("realm_access", Map.of("roles", List.of("trial-monitor"))));
        String subscribe = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"" + A + "\"}}";
        String session = Rpc.initialize(before, "2025-06-18");
        Rpc.call(before, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").statusCode(202);
        Rpc.call(before, session, subscribe).statusCode(200).body(org.hamcrest.Matchers.containsString("\"result\""));

        writePolicy(rule.formatted(A, "trial-monitor"));
        Rpc.call(after, session, subscribe).statusCode(200).body(org.hamcrest.Matchers.containsString("\"result\""));
        try (var stream = new RawStream(openBody(after, session))) {
            // This stream may be the replica's first, whose watcher starts with it: a change is made again until one
            // is seen (with the subscriber of the first subscribe kept, none ever is).
            Wait.until("a.txt's notification after subscribing again", Duration.ofSeconds(10), () -> {
                write(A, "monitored " + System.nanoTime() + "\n");
                return Wait.holdsWithin(Duration.ofSeconds(2), () -> stream.updates(A) > 0);
            });
        }
        end(after, session);
    }

    /**
     * Ends a session, its stream on this replica and its subscriptions at once, so that a later test's changes to the
     * same files are not notified to it (and recorded under its subject) before the server sees its client gone.
     */
    private static void end(String token, String session) {
        given().header("Authorization", "Bearer " + token).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(204);
    }

    /** A raw GET stream's lines, read in the background. */
    private static final class RawStream implements AutoCloseable {
        final java.io.InputStream body;
        final BufferedReader reader;
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Thread thread;

        RawStream(java.io.InputStream body) {
            this.body = body;
            this.reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            this.thread = new Thread(() -> {
                try {
                    for (String line; (line = reader.readLine()) != null;) {
                        lines.add(line);
                    }
                } catch (java.io.IOException closed) {
                    // The test closed it.
                }
            }, "raw-stream");
            thread.setDaemon(true);
            thread.start();
            Wait.until("the stream to open", Duration.ofSeconds(5), () -> lines.contains(":stream open"));
        }

        long updates(String uri) {
            return lines.stream().filter(l -> l.startsWith("data:") && l.contains("notifications/resources/updated")
                    && l.contains("\"uri\":\"" + uri + "\"")).count();
        }

        /** Closes the connection: not the reader, whose lock the thread blocked on its next line holds until one comes. */
        @Override
        public void close() throws Exception {
            body.close();
        }
    }

    @Test
    void rapidChangesAreCoalesced() throws Exception {
        grantDave("file:///watched/**");
        Watcher dave = watcher("dave");
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(A));
        dave.client().subscribeResource(new McpSchema.SubscribeRequest(CONTROL));
        for (int i = 0; i < 20; i++) {
            write(A, "burst " + i + "\n");
        }
        Wait.until("the burst's notification", Duration.ofSeconds(2), () -> !dave.updates(A).isEmpty());
        throughThePipeline(dave);
        // 20 writes in a few milliseconds fall into one or two coalescing windows (300 ms).
        assertTrue(dave.updates(A).size() <= 2, dave.updates(A).size() + " notifications for one burst");
    }

    @Test
    void getStreamFollowsTheSessionRules() throws Exception {
        String dave = TestIssuer.tokenFor("dave");
        String carol = TestIssuer.tokenFor("carol");
        String session = Rpc.initialize(dave, "2025-06-18");
        var get = given().header("Authorization", "Bearer " + dave).accept("text/event-stream");
        get.get("/mcp").then().statusCode(400);
        given().header("Authorization", "Bearer " + dave).accept("text/event-stream").header("Mcp-Session-Id", "no-such-session")
                .get("/mcp").then().statusCode(404);
        given().header("Authorization", "Bearer " + carol).accept("text/event-stream").header("Mcp-Session-Id", session)
                .get("/mcp").then().statusCode(404);
        given().accept("text/event-stream").header("Mcp-Session-Id", session).get("/mcp").then().statusCode(401);

        // The owner gets an event stream. A second GET replaces the first, and DELETE ends the session's stream.
        try (var first = openStream(dave, session)) {
            assertEquals(":stream open", first.readLine());
            try (var second = openStream(dave, session)) {
                assertEquals(":stream open", second.readLine());
                assertTrue(millisToEnd(first) < 2_000, "the replaced stream ends");
                // An idle stream gets keep-alive comments (every second in this profile).
                long start = System.nanoTime();
                String line;
                do {
                    line = second.readLine();
                } while (line != null && line.isEmpty());
                assertEquals(":keep-alive", line);
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(3), "keep-alive within 3 s");
                given().header("Authorization", "Bearer " + dave).header("Mcp-Session-Id", session).delete("/mcp")
                        .then().statusCode(204);
                long endedMs = millisToEnd(second);
                assertTrue(endedMs < 2_000, "the stream ended " + endedMs + " ms after the session was deleted");
            }
        }
        given().header("Authorization", "Bearer " + dave).accept("text/event-stream").header("Mcp-Session-Id", session)
                .get("/mcp").then().statusCode(404);
    }

    @Test
    void aMovingGitRefIsNotified() throws Exception {
        Watcher bob = watcher("bob");
        String uri = "git://handbook/notify-test/README.md";
        try (var git = org.eclipse.jgit.api.Git.open(ProvidersProfile.REPO.toFile())) {
            var who = new org.eclipse.jgit.lib.PersonIdent("Test", "test@example.org");
            bob.client().subscribeResource(new McpSchema.SubscribeRequest(uri));
            long created = System.nanoTime();
            git.branchCreate().setName("notify-test").setStartPoint("main").setForce(true).call();
            // The new branch is a list change. Only once a poll (every 500 ms in this profile) has seen the branch
            // is moving it an update of its files; a list change can also come from an earlier poll's news, so a
            // move that a poll saw together with the new branch (a list change only) is followed by another.
            Wait.until("list_changed for the new branch", Duration.ofSeconds(6), () -> bob.listChangedSince(created));
            String content = null;
            for (int move = 1; move <= 3 && bob.updates(uri).isEmpty(); move++) {
                content = "# Handbook, changed " + move + "\n";
                git.checkout().setName("notify-test").call();
                try {
                    Files.writeString(ProvidersProfile.REPO.resolve("README.md"), content);
                    git.add().addFilepattern("README.md").call();
                    git.commit().setMessage("change " + move).setAuthor(who).setCommitter(who).setSign(false).call();
                } finally {
                    git.checkout().setName("main").call();
                }
                Wait.holdsWithin(Duration.ofSeconds(2), () -> !bob.updates(uri).isEmpty());
            }
            Wait.until("updated for the moved ref's file", Duration.ofSeconds(6), () -> !bob.updates(uri).isEmpty());
            String expected = uri + "=" + content;
            Wait.until("the SDK to read the new content", Duration.ofSeconds(5), () -> bob.updatedContents().contains(expected));
            git.branchDelete().setBranchNames("notify-test").setForce(true).call();
        }
    }

    private BufferedReader openStream(String token, String session) throws Exception {
        return new BufferedReader(new InputStreamReader(openBody(token, session), StandardCharsets.UTF_8));
    }

    /** The X-Request-Id of the stream opened last. */
    private String streamRequestId;

    private java.io.InputStream openBody(String token, String session) throws Exception {
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream")
                .header("Mcp-Session-Id", session).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        assertTrue(response.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        // The stream names the request its notifications are recorded under, as every answer names its request.
        streamRequestId = response.headers().firstValue("X-Request-Id").orElse(null);
        assertNotNull(streamRequestId, "the stream's X-Request-Id");
        return response.body();
    }

    /** Reads to the end of a stream (keep-alive comments may come first) and says how long that took. */
    private static long millisToEnd(BufferedReader stream) throws Exception {
        long start = System.nanoTime();
        while (stream.readLine() != null) {
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "the stream does not end");
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void completionOffersOnlyWhatTheCallerMayRead() throws Exception {
        grantDave(A, "file:///watched/sub/**");
        Watcher dave = watcher("dave");
        String template = dave.client().listResourceTemplates().resourceTemplates().stream()
                .map(McpSchema.ResourceTemplate::uriTemplate).filter(t -> t.startsWith("file:///watched")).findFirst()
                .orElseThrow();
        var all = dave.client().completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference(template), new McpSchema.CompleteRequest.CompleteArgument("path", "")));
        assertEquals(List.of("a.txt", "sub/"), all.completion().values(), "control.txt is not offered");
        var inSub = dave.client().completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference(template), new McpSchema.CompleteRequest.CompleteArgument("path", "sub/")));
        assertEquals(List.of("sub/b.txt"), inSub.completion().values());

        // Git refs: everyone may read the handbook repository.
        var refs = dave.client().completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference("git://handbook/{ref}/{+path}"),
                new McpSchema.CompleteRequest.CompleteArgument("ref", "")));
        assertTrue(refs.completion().values().containsAll(List.of("main", "release:2.x")), refs.completion().values().toString());
        // On 2026-07-28, which reads a URI only in its canonical form, "release:2.x" is not offered: a client's RFC 6570
        // expansion of {ref} writes its ':' as "%3A", and that read is refused as not canonical.
        String daveToken = TestIssuer.tokenFor("dave");
        List<String> modern = dev.quaestor.support.Modern.call(daveToken, 60, "completion/complete",
                "\"ref\":{\"type\":\"ref/resource\",\"uri\":\"git://handbook/{ref}/{+path}\"},"
                        + "\"argument\":{\"name\":\"ref\",\"value\":\"\"}").statusCode(200)
                .extract().path("result.completion.values");
        assertTrue(modern.contains("main") && !modern.contains("release:2.x"), modern.toString());
        String expanded = dev.quaestor.uri.UriTemplate.parse("git://handbook/{ref}/{+path}")
                .expand(java.util.Map.of("ref", "release:2.x", "path", "README.md"));
        assertEquals("git://handbook/release%3A2.x/README.md", expanded);
        dev.quaestor.support.Modern.read(daveToken, 61, expanded).statusCode(200)
                .body("error.code", org.hamcrest.Matchers.equalTo(-32602));
        for (String ref : modern) {
            dev.quaestor.support.Modern.read(daveToken, 62, dev.quaestor.uri.UriTemplate.parse("git://handbook/{ref}/{+path}")
                    .expand(java.util.Map.of("ref", ref, "path", "README.md"))).statusCode(200)
                    .body("error", org.hamcrest.Matchers.nullValue());
        }

        // Bob may not read anything under file:///watched/: nothing is offered.
        Watcher bob = watcher("bob");
        var none = bob.client().completeCompletion(new McpSchema.CompleteRequest(
                new McpSchema.ResourceReference(template), new McpSchema.CompleteRequest.CompleteArgument("path", "")));
        assertNotNull(none.completion());
        assertTrue(none.completion().values().isEmpty(), none.completion().values().toString());
    }

    /**
     * A file whose name holds a percent sign followed by two hex digits ({@code %41.txt}) is never offered as a value: in
     * the {@code {+path}} template it would expand to {@code %41.txt}, a URI that means {@code A.txt}, another file,
     * which the caller would then be served (2025) or refused as not canonical (2026-07-28).
     */
    @Test
    void completionNeverOffersAValueWhoseUriNamesAnotherFile() throws Exception {
        Path folder = ProvidersProfile.WATCHED.resolve("pct");
        Files.createDirectories(folder);
        try {
            Files.writeString(folder.resolve("%41.txt"), "percent\n");
            Files.writeString(folder.resolve("A.txt"), "letter\n");
            grantDave("file:///watched/pct/**");
            Watcher dave = watcher("dave");
            String template = dave.client().listResourceTemplates().resourceTemplates().stream()
                    .map(McpSchema.ResourceTemplate::uriTemplate).filter(t -> t.startsWith("file:///watched")).findFirst()
                    .orElseThrow();
            Wait.until("the index to hold both files", Duration.ofSeconds(10), () -> dave.client().listResources().resources().stream()
                    .filter(r -> r.uri().startsWith("file:///watched/pct/")).count() == 2);
            var offered = dave.client().completeCompletion(new McpSchema.CompleteRequest(
                    new McpSchema.ResourceReference(template), new McpSchema.CompleteRequest.CompleteArgument("path", "pct/")));
            assertEquals(List.of("pct/A.txt"), offered.completion().values());
            // A value typed with a '%' offers nothing either (and the provider is not asked: the policy would judge the
            // URI it makes, "pct/%41" being "pct/A", not the folder named "%41" the provider would look in).
            var typed = dave.client().completeCompletion(new McpSchema.CompleteRequest(
                    new McpSchema.ResourceReference(template), new McpSchema.CompleteRequest.CompleteArgument("path", "pct/%4")));
            assertEquals(List.of(), typed.completion().values());
            assertEquals(Boolean.FALSE, typed.completion().hasMore());
            // The file is still listed, and read, by the URI that names it.
            assertTrue(dave.client().listResources().resources().stream().anyMatch(r -> r.uri().equals("file:///watched/pct/%2541.txt")));
            var read = dave.client().readResource(new McpSchema.ReadResourceRequest("file:///watched/pct/%2541.txt"));
            assertEquals("percent\n", ((McpSchema.TextResourceContents) read.contents().get(0)).text());
        } finally {
            try (var files = Files.list(folder)) {
                for (Path p : files.toList()) {
                    Files.delete(p);
                }
            }
            Files.delete(folder);
        }
    }
}
