package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.SseEvents;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import dev.quaestor.support.Wait;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import io.quarkus.test.junit.TestProfile;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code subscriptions/listen} (2026-07-28) over raw HTTP: the acknowledgement grants only what policy
 * allows, notifications carry the subscription id, each is audited before it is sent and judged again
 * under the policy in force, and the stream ends gracefully when its token expires.
 */
@QuarkusTest
@TestProfile(ProvidersProfile.class)
class ListenTest {

    private static final Path POLICY = TestPolicies.DIR.resolve("listen-test.yaml");
    private static final String A = "file:///watched/a.txt";
    private static final String CONTROL = "file:///watched/control.txt";
    private static final String ALICE_NOTES = "file:///docs/home/alice/notes.md";
    private static final String SUB_ID = "io.modelcontextprotocol/subscriptionId";

    @TestHTTPResource("/")
    URL base;

    private final List<SseEvents> open = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (SseEvents s : open) {
            s.close();
        }
        open.clear();
        if (Files.deleteIfExists(POLICY)) {
            Wait.until("the test policy's removal", Duration.ofSeconds(10),
                    () -> !String.valueOf(policyHealth().get("files")).contains("listen-test"));
        }
    }

    private static void grantErin(String... resources) throws Exception {
        String before = (String) policyHealth().get("revision");
        Files.writeString(POLICY, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: erin-listens
                    effect: allow
                    actions: [list, read, subscribe]
                    resources: [%s]
                    subjects: {subjects: [erin]}
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

    /** A listen POST with the standard headers; returns the HTTP response (SSE when it was accepted). */
    private HttpResponse<java.io.InputStream> listen(String token, String id, String filter) throws Exception {
        String body = Modern.body(id, "subscriptions/listen", "\"notifications\":" + filter);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base.toString().replaceAll("/$", "") + "/mcp"))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").header("MCP-Protocol-Version", Modern.VERSION)
                .header("Mcp-Method", "subscriptions/listen").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    private SseEvents stream(HttpResponse<java.io.InputStream> r) {
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
        var events = new SseEvents(r.body());
        open.add(events);
        return events;
    }

    /** The next notification about {@code uri} within the time, skipping others; null if none. */
    private static SseEvents.Event updated(SseEvents events, String uri, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            var e = events.next(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (e == null || SseEvents.ended(e)) {
                return null;
            }
            if ("notifications/resources/updated".equals(e.json().path("method").asText())
                    && uri.equals(e.json().path("params").path("uri").asText())) {
                return e;
            }
        }
        return null;
    }

    @Test
    void theAcknowledgementHonoursOnlyWhatPolicyGrants() throws Exception {
        grantErin("file:///watched/**");
        var r = listen(TestIssuer.tokenFor("erin"), "listen:7", "{\"resourcesListChanged\":true,\"toolsListChanged\":true,"
                + "\"resourceSubscriptions\":[\"" + A + "\",\"" + ALICE_NOTES + "\",\"file:///watched/not-yet.txt\"]}");
        String requestId = r.headers().firstValue("X-Request-Id").orElse(null);
        var events = stream(r);
        var ack = events.next(5_000);
        assertNotNull(ack, "the acknowledgement is the first event");
        JsonNode json = ack.json();
        assertEquals("notifications/subscriptions/acknowledged", json.path("method").asText(), json.toString());
        assertEquals("listen:7", json.at("/params/_meta").get(SUB_ID).asText(), "the listen request's id, as sent");
        assertTrue(json.at("/params/_meta").get(SUB_ID).isTextual());
        JsonNode honoured = json.at("/params/notifications");
        assertTrue(honoured.path("resourcesListChanged").asBoolean());
        assertFalse(honoured.has("toolsListChanged"), "this server has no tools");
        var uris = new ArrayList<String>();
        honoured.path("resourceSubscriptions").forEach(u -> uris.add(u.asText()));
        // Alice's notes are simply absent: the same answer whether or not they exist.
        assertEquals(List.of(A, "file:///watched/not-yet.txt"), uris);

        // Every judgement is a record: one per URI and one for the list filter, with action subscribe.
        var rows = AuditRow.list("request_id = ? ORDER BY seq", requestId);
        var perUri = rows.stream().filter(x -> x.kind.equals("DECISION") && x.uri != null).toList();
        assertEquals(3, perUri.size(), rows.toString());
        assertEquals("DENY", perUri.stream().filter(x -> x.uri.equals(ALICE_NOTES)).findFirst().orElseThrow().decision);
        assertTrue(perUri.stream().allMatch(x -> "subscribe".equals(x.action) && "2026-07-28".equals(x.protocol)));
        assertTrue(rows.stream().anyMatch(x -> x.kind.equals("DECISION") && "resourcesListChanged".equals(x.detail)
                && "ALLOW".equals(x.decision)));
        var outcome = rows.stream().filter(x -> x.kind.equals("OUTCOME")).findFirst().orElseThrow();
        assertEquals(2, outcome.items);
        assertEquals("subscriptions/listen", outcome.method);
    }

    @Test
    void aChangeIsNotifiedWithinTwoSecondsTaggedAuditedAndStopsWhenAccessIsRevoked() throws Exception {
        grantErin("file:///watched/**");
        var r = listen(TestIssuer.tokenFor("erin"), "42", "{\"resourceSubscriptions\":[\"" + A + "\",\"" + CONTROL + "\"]}");
        String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();
        var events = stream(r);
        assertEquals("notifications/subscriptions/acknowledged", events.next(5_000).json().path("method").asText());

        long written = System.nanoTime();
        write(A, "a-listen-1\n");
        var n = updated(events, A, 2_000);
        assertNotNull(n, "notifications/resources/updated for a.txt within 2 s");
        assertTrue(n.nanoTime() - written < TimeUnit.SECONDS.toNanos(2));
        assertEquals("42", n.json().at("/params/_meta").get(SUB_ID).asText());
        assertTrue(n.json().at("/params/_meta").get(SUB_ID).isTextual(), "a string id stays a string");
        // Its record was committed before it was sent: it is there the moment the notification is.
        var sent = AuditRow.list("request_id = ? AND kind = 'NOTIFICATION' AND uri = ?", requestId, A);
        assertFalse(sent.isEmpty(), "the notification's record exists when the notification arrives");
        assertEquals("2026-07-28", sent.get(0).protocol);
        assertEquals("erin", sent.get(0).subject);
        assertEquals("notifications/resources/updated", sent.get(0).method);
        assertEquals("ALLOW", sent.get(0).decision);
        assertNotNull(sent.get(0).policyRevision);

        // Revoke a.txt (the control file stays granted): the open stream gets nothing more about it.
        grantErin(CONTROL);
        int before = AuditRow.list("request_id = ? AND kind = 'NOTIFICATION' AND uri = ?", requestId, A).size();
        write(A, "a-listen-2\n");
        write(CONTROL, "c-listen-2\n");
        var seen = notifiedUntilControl(events);
        assertTrue(seen.contains(CONTROL), "the control file's notification: the stream is alive " + seen);
        assertFalse(seen.contains(A), "no notification for a URI the policy no longer allows: " + seen);
        assertEquals(before, AuditRow.list("request_id = ? AND kind = 'NOTIFICATION' AND uri = ?", requestId, A).size());
    }

    /** A policy that still lets erin read a file but no longer subscribe to it stops its notifications too. */
    @Test
    void revokingSubscribeAloneStopsTheNotifications() throws Exception {
        grantErin("file:///watched/**");
        var r = listen(TestIssuer.tokenFor("erin"), "43", "{\"resourceSubscriptions\":[\"" + A + "\",\"" + CONTROL + "\"]}");
        var events = stream(r);
        assertEquals("notifications/subscriptions/acknowledged", events.next(5_000).json().path("method").asText());
        write(A, "a-sub-1\n");
        assertNotNull(updated(events, A, 2_000), "notified while subscribe is allowed");

        String before = (String) policyHealth().get("revision");
        Files.writeString(POLICY, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: erin-listens
                    effect: allow
                    actions: [list, read, subscribe]
                    resources: ["file:///watched/**"]
                    subjects: {subjects: [erin]}
                  - id: erin-no-longer-subscribes-to-a
                    effect: deny
                    actions: [subscribe]
                    resources: ["%s"]
                    subjects: {subjects: [erin]}
                """.formatted(A));
        Wait.until("the policy edit to be active", Duration.ofSeconds(15), () -> "ok".equals(policyHealth().get("state"))
                && !before.equals(policyHealth().get("revision")));
        write(A, "a-sub-2\n");
        write(CONTROL, "c-sub-2\n");
        var seen = notifiedUntilControl(events);
        assertTrue(seen.contains(CONTROL), "the control file's notification: the stream is alive " + seen);
        assertFalse(seen.contains(A), "no notification for a URI erin may read but no longer subscribe to: " + seen);
    }

    /**
     * The URIs of every notification until a second after the control file's, which the test writes last: one about
     * a file written before it would have come by then. (Looking for one URI would pass over the others.)
     */
    private static List<String> notifiedUntilControl(SseEvents events) throws InterruptedException {
        var seen = new ArrayList<String>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        while (System.nanoTime() < deadline) {
            var e = events.next(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (e == null || SseEvents.ended(e)) {
                break;
            }
            String uri = e.json().path("params").path("uri").asText();
            seen.add(uri);
            if (uri.equals(CONTROL)) {
                deadline = Math.min(deadline, System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            }
        }
        return seen;
    }

    /** The next {@code list_changed} within the time, skipping other events; null if none. */
    private static SseEvents.Event listChanged(SseEvents events, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (System.nanoTime() < deadline) {
            var e = events.next(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (e == null || SseEvents.ended(e)) {
                return null;
            }
            if ("notifications/resources/list_changed".equals(e.json().path("method").asText())) {
                return e;
            }
        }
        return null;
    }

    /**
     * A holder who may list one folder of a mount and is denied another hears of a file created in the folder it may
     * list, recorded under that file's URI, and of nothing created in the folder it may not: the notification never
     * says more than a listing would show.
     */
    @Test
    void listChangedTellsOnlyOfEntriesTheHolderMayList() throws Exception {
        String before = (String) policyHealth().get("revision");
        Files.writeString(POLICY, """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - id: erin-lists-open
                    effect: allow
                    actions: [list, read, subscribe]
                    resources: ["file:///watched/open/**"]
                    subjects: {subjects: [erin]}
                  - id: erin-kept-out-of-secret
                    effect: deny
                    actions: [list, read, subscribe]
                    resources: ["file:///watched/secret/**"]
                    subjects: {subjects: [erin]}
                """);
        Wait.until("the policy edit to be active", Duration.ofSeconds(15), () -> "ok".equals(policyHealth().get("state"))
                && !before.equals(policyHealth().get("revision")));
        Path allowedDir = Files.createDirectories(ProvidersProfile.WATCHED.resolve("open"));
        Path deniedDir = Files.createDirectories(ProvidersProfile.WATCHED.resolve("secret"));
        String tag = Long.toString(System.nanoTime());
        Path hidden = deniedDir.resolve("new-" + tag + ".txt");
        Path shown = allowedDir.resolve("new-" + tag + ".txt");
        try {
            var r = listen(TestIssuer.tokenFor("erin"), "lc-1", "{\"resourcesListChanged\":true}");
            String requestId = r.headers().firstValue("X-Request-Id").orElseThrow();
            var events = stream(r);
            var ack = events.next(5_000);
            assertNotNull(ack, "the acknowledgement");
            assertTrue(ack.json().at("/params/notifications/resourcesListChanged").asBoolean(), ack.json().toString());

            Files.writeString(hidden, "not for erin\n");
            assertNull(listChanged(events, 1_500), "no list_changed for a file created where erin may not list");
            assertEquals(List.of(), AuditRow.list("request_id = ? AND kind = 'NOTIFICATION'", requestId),
                    "no NOTIFICATION record for it either");

            Files.writeString(shown, "for erin\n");
            assertNotNull(listChanged(events, 2_000), "list_changed for a file created where erin may list");
            var records = AuditRow.list("request_id = ? AND kind = 'NOTIFICATION'", requestId);
            assertEquals(1, records.size(), records.toString());
            assertEquals("notifications/resources/list_changed", records.get(0).method);
            assertEquals("file:///watched/open/new-" + tag + ".txt", records.get(0).uri, "recorded under the new file");
            assertEquals("ALLOW", records.get(0).decision);
        } finally {
            for (SseEvents s : open) {
                s.close();
            }
            open.clear();
            Files.deleteIfExists(hidden);
            Files.deleteIfExists(shown);
            Files.deleteIfExists(deniedDir);
            Files.deleteIfExists(allowedDir);
        }
    }

    @Inject
    dev.quaestor.subscription.ChangeNotifier notifier;

    /**
     * A stream that closed between its notification's record and the notification itself: the record said {@code ok},
     * so a second {@code NOTIFICATION}, {@code aborted}, says it was not sent.
     */
    @Test
    void aNotificationWhoseStreamClosedBeforeItWasSentIsRecordedAsAborted() throws Exception {
        grantErin("file:///watched/**");
        String requestId = "closed-stream-" + System.nanoTime();
        var erin = new dev.quaestor.identity.Identity("erin", "client-e", null, java.util.Set.of(), java.util.Set.of(),
                java.util.Set.of());
        var holder = new dev.quaestor.subscription.StreamHolder(new dev.quaestor.subscription.Subscriber(erin, "10.0.0.5"),
                new dev.quaestor.audit.record.Caller("erin", "client-e", null, List.of(), "10.0.0.5", "test", null, null,
                        null, null),
                requestId, Modern.VERSION);
        var closed = new dev.quaestor.subscription.NotificationOutlet() {
            public String key() { return requestId; }
            public String sessionId() { return null; }
            public java.util.Set<String> resourceSubscriptions() { return java.util.Set.of(A); }
            public boolean listChanged() { return false; }
            public dev.quaestor.subscription.StreamHolder holder() { return holder; }
            public Map<String, Object> meta() { return Map.of(); }
            public boolean send(String notification, Runnable ifNotWritten) { return false; } // the stream is gone
        };
        notifier.attach(closed);
        try {
            write(A, "a-closed-" + requestId + "\n");
            Wait.until("the notification's two records", Duration.ofSeconds(10),
                    () -> AuditRow.list("request_id = ? AND kind = 'NOTIFICATION'", requestId).size() >= 2);
        } finally {
            notifier.detach(closed);
        }
        var records = AuditRow.list("request_id = ? AND kind = 'NOTIFICATION' ORDER BY seq", requestId);
        assertEquals(List.of("ok", "aborted"), records.stream().map(r -> r.outcome).toList());
        assertEquals(A, records.get(1).uri);
        assertTrue(records.get(1).detail.contains("not sent"), records.get(1).detail);
    }

    @Test
    void theStreamEndsGracefullyWhenItsTokenExpires() throws Exception {
        grantErin("file:///watched/**");
        Instant expiry = Instant.now().plusSeconds(4).truncatedTo(ChronoUnit.SECONDS);
        String shortLived = TestIssuer.sign(TestIssuer.claims("erin").claim("tenant", "acme").expiresAt(expiry.getEpochSecond()));
        var events = stream(listen(shortLived, "listen:9", "{\"resourceSubscriptions\":[\"" + A + "\"]}"));
        assertEquals("notifications/subscriptions/acknowledged", events.next(5_000).json().path("method").asText());
        SseEvents.Event last = null;
        SseEvents.Event e;
        while (!SseEvents.ended(e = events.next(15_000))) {
            assertNotNull(e, "the stream did not end; its token expired at " + expiry);
            last = e;
        }
        Instant ended = Instant.now();
        assertNotNull(last);
        // The graceful end: the listen request's result, carrying the subscription id, then the end of the stream.
        assertEquals("listen:9", last.json().path("id").asText(), last.json().toString());
        assertEquals("complete", last.json().at("/result/resultType").asText());
        assertEquals("listen:9", last.json().at("/result/_meta").get(SUB_ID).asText());
        assertFalse(ended.isBefore(expiry), "ended at " + ended + ", before the token's expiry " + expiry);
        assertTrue(ended.isBefore(expiry.plusSeconds(7)), "ended at " + ended + ", long after " + expiry);
    }

    @Test
    void refusedListensAreOrdinaryJsonAnswers() throws Exception {
        grantErin("file:///watched/**");
        String erin = TestIssuer.tokenFor("erin");
        // No filter: invalid params, before any stream.
        Modern.as(erin, "subscriptions/listen").body(Modern.body(1, "subscriptions/listen", null)).post("/mcp").then()
                .statusCode(200).contentType(org.hamcrest.Matchers.containsString("application/json"))
                .body("error.code", equalTo(-32602));
        // A URI not already in canonical form: refused and audited.
        var r = Modern.as(erin, "subscriptions/listen")
                .body(Modern.body(2, "subscriptions/listen", "\"notifications\":{\"resourceSubscriptions\":[\"FILE:///watched/a.txt\"]}"))
                .post("/mcp").then().statusCode(200).body("error.code", equalTo(-32602))
                .body("error.data.canonicalUri", equalTo(A)).extract();
        var row = AuditRow.first("request_id = ?", r.header("X-Request-Id"));
        assertEquals("non-canonical-uri", row.outcome);
        // The header says listen, the body something else: HeaderMismatch, no stream.
        Modern.as(erin, "subscriptions/listen").body(Modern.body(3, "resources/list", null)).post("/mcp").then()
                .statusCode(400).body("error.code", equalTo(-32020));
        // The body says listen, the header something else: the same.
        Modern.as(erin, "resources/list").body(Modern.body(4, "subscriptions/listen", "\"notifications\":{}")).post("/mcp")
                .then().statusCode(400).body("error.code", equalTo(-32020));
    }
}
