package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.HeldMonth;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A console page that fails after its view was let in, with a server error no record of its own explains (here its
 * database connection ended mid-search), does not leave its {@code ok} alone: a second record under its request id
 * says it was not answered ({@code error}, with the status), as for the auditor API, and holds nothing of what failed.
 * Nor does a page whose reader left before it was answered: {@code aborted}.
 */
@QuarkusTest
class ConsoleViewFailureTest {

    @Test
    void aSearchPageWhoseDatabaseConnectionEndsMidReadIsOnRecordAsLetInThenError() throws Exception {
        ConsoleSession auditor = ConsoleSession.signIn("auditor");
        String prefix = "file:///docs/console-failure-" + System.nanoTime() + "/";
        Response answer;
        // A month of the log that a search of every month must read, held by another transaction; while the page's
        // search waits for it, its connection is ended from outside, as a database restart or a lost connection would.
        try (var held = HeldMonth.hold()) {
            var pending = CompletableFuture.supplyAsync(() -> auditor.get("/console/search?uriPrefix=" + prefix));
            assertTrue(held.endTheWaitingRead(), "the search waited for the month held");
            answer = pending.get();
        }
        assertEquals(503, answer.statusCode(), answer.statusLine());
        String where = "kind = 'AUDIT_READ' AND method = 'console/search' AND detail LIKE ? ORDER BY id";
        Wait.holdsWithin(Duration.ofSeconds(5), () -> AuditRow.list(where, "%" + prefix + "%").size() >= 2);
        List<AuditRow> records = AuditRow.list(where, "%" + prefix + "%");
        assertEquals(List.of("ALLOW/ok", "ALLOW/error"), records.stream().map(r -> r.decision + "/" + r.outcome).toList(),
                records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals("auditor", records.get(1).subject);
        assertTrue(records.get(1).detail.endsWith("not answered: the call failed after it was let in (HTTP " + answer.statusCode() + ")"),
                records.get(1).detail);
        assertNull(records.get(1).bytes);
        assertTrue(answer.contentType().startsWith("text/html"), answer.contentType());
        String page = answer.body().asString();
        assertTrue(page.contains("Not answered") && page.contains("failed during this read"), "a console page saying what happened: " + page);
        assertTrue(page.contains(records.get(0).requestId), "the page names the view's record: " + page);
        assertEquals(records.get(0).requestId, answer.header("X-Request-Id"));
    }

    @Test
    void aSearchPageWhoseReaderLeavesBeforeItIsAnsweredIsOnRecordAsLetInThenAborted() throws Exception {
        ConsoleSession auditor = ConsoleSession.signIn("auditor");
        String prefix = "file:///docs/console-left-" + System.nanoTime() + "/";
        java.time.Instant since = java.time.Instant.now().minusSeconds(1);
        // From this second on: the month held is not read (nor waited for) by the test's own look at the log.
        String where = "kind = 'AUDIT_READ' AND method = 'console/search' AND detail LIKE ? AND event_time >= ? ORDER BY id";
        // While the page's search waits for a month held by another transaction, its reader closes the connection.
        try (var held = HeldMonth.hold()) {
            try (var socket = new Socket("127.0.0.1", RestAssured.port)) {
                OutputStream out = socket.getOutputStream();
                out.write(("GET /console/search?uriPrefix=" + java.net.URLEncoder.encode(prefix, StandardCharsets.UTF_8)
                        + " HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + auditor.cookies() + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertTrue(Wait.holdsWithin(Duration.ofSeconds(10), () -> AuditRow.list(where, "%" + prefix + "%", since).size() == 1),
                        "the view is on record as let in");
            }
            // The month is let go when the connection has been closed: the search then ends with nobody to answer.
        }
        assertTrue(Wait.holdsWithin(Duration.ofSeconds(10), () -> AuditRow.list(where, "%" + prefix + "%", since).size() >= 2),
                "a second record says how the view ended");
        List<AuditRow> records = AuditRow.list(where, "%" + prefix + "%", since);
        assertEquals(List.of("ALLOW/ok", "ALLOW/aborted"), records.stream().map(r -> r.decision + "/" + r.outcome).toList(),
                records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertTrue(records.get(1).detail.contains("the answer did not reach the client"), records.get(1).detail);
    }
}
