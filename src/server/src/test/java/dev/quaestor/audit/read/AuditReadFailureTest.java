package dev.quaestor.audit.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.HeldMonth;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An auditor's call that fails after it was let in, with a server error no record of its own explains (here its
 * database connection ended mid-search), does not leave its {@code ok} alone: a second record under its request id
 * says it was not answered ({@code error}, with the status), and holds nothing of what failed.
 */
@QuarkusTest
class AuditReadFailureTest {

    @io.quarkus.test.common.http.TestHTTPResource("/")
    URI base;

    @Test
    void aSearchWhoseDatabaseConnectionEndsMidReadIsOnRecordAsLetInThenError() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        String prefix = "file:///docs/failure-" + System.nanoTime() + "/";
        Instant before = Instant.now();
        HttpResponse<String> answer;
        // A month of the log that a search of every month must read, held by another transaction; while the search
        // waits for it, its connection is ended from outside, as a database restart or a lost connection would.
        try (var held = HeldMonth.hold()) {
            var pending = HttpClient.newHttpClient().sendAsync(HttpRequest.newBuilder(URI.create(base + "audit/search?uriPrefix="
                    + URLEncoder.encode(prefix, StandardCharsets.UTF_8))).header("Authorization", "Bearer " + auditor)
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertTrue(held.endTheWaitingRead(), "the search waited for the month held");
            answer = pending.get();
        }
        assertEquals(500, answer.statusCode(), answer.body());
        // The second record is queued once the answer has ended: wait for it a little.
        String where = "kind = 'AUDIT_READ' and method = 'audit/search' and detail like ? and event_time >= ? order by id";
        Wait.holdsWithin(Duration.ofSeconds(5), () -> AuditRow.list(where, "%uriPrefix=" + prefix + "%", before).size() >= 2);
        List<AuditRow> records = AuditRow.list(where, "%uriPrefix=" + prefix + "%", before);
        assertEquals(List.of("ok", "error"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals("ALLOW", records.get(1).decision);
        assertTrue(records.get(1).detail.endsWith("not answered: the call failed after it was let in (HTTP 500)"), records.get(1).detail);
        assertNull(records.get(1).bytes);
        assertEquals(records.get(0).requestId, answer.headers().firstValue("X-Request-Id").orElse(null), "the answer names the record");
        assertTrue(answer.body().contains("the audit log's database failed during this read"), answer.body());
    }
}
