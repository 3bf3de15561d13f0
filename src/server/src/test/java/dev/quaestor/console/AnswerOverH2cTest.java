package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A page delivered whole is not on record as lost, whatever the client does with the connection afterwards: Java's
 * HTTP client (as the Java MCP SDK uses it) asks a plain-http server to upgrade each new connection to h2c, and
 * closes it once it has the answer; the close must not read as an answer that did not reach it.
 */
@QuarkusTest
class AnswerOverH2cTest {

    @Test
    void pagesDeliveredOverUpgradedConnectionsHaveNoAbortedRecord() throws Exception {
        var console = ConsoleSession.signIn("auditor");
        Instant since = Instant.now().minusSeconds(1);
        String marker = "h2c-" + System.nanoTime();
        var requestIds = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            // A new client each time (HTTP/2 first: an h2c upgrade on plain http), so each page comes on a new connection.
            var page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + RestAssured.port
                        + "/console/search?subject=" + marker + "-" + i)).header("Cookie", console.cookies()).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            assertEquals(HttpClient.Version.HTTP_2, page.version(), "the page came over an upgraded (h2c) connection");
            requestIds.add(page.headers().firstValue("X-Request-Id")
                    .orElseThrow(() -> new AssertionError("the page names its record: " + page.headers().map())));
        }
        // Each page is on record as delivered: the records are being written, so the absence of a lost one below means something.
        for (String id : requestIds) {
            Wait.until("the page " + id + " on record as delivered", Duration.ofSeconds(10),
                    () -> outcomes(id).contains("ALLOW/ok"));
        }
        Thread.sleep(1500); // a record of a lost answer would be queued once the connection closed
        List<AuditRow> lost = AuditRow.list("method = 'console/search' AND outcome = 'aborted' AND detail LIKE ? AND event_time >= ?",
                "%" + marker + "%", since);
        assertEquals(List.of(), lost.stream().map(r -> r.detail).toList());
        for (String id : requestIds) {
            assertEquals(List.of("ALLOW/ok"), outcomes(id), "the records of the page " + id);
        }
    }

    /** The records under {@code requestId}, oldest first, as decision/outcome. */
    private static List<String> outcomes(String requestId) {
        return AuditRow.list("request_id = ? ORDER BY id", requestId).stream().map(r -> r.decision + "/" + r.outcome).toList();
    }
}
