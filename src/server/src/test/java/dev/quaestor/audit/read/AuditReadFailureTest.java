package dev.quaestor.audit.read;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.HeldMonth;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
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
            var pending = HttpClient.newHttpClient().sendAsync(search(prefix, auditor), HttpResponse.BodyHandlers.ofString());
            assertTrue(held.endTheWaitingRead(), "the search waited for the month held");
            answer = pending.get();
        }
        assertEquals(503, answer.statusCode(), answer.body());
        assertEquals("5", answer.headers().firstValue("Retry-After").orElse(null), "a passing state: try again");
        // The second record is queued once the answer has ended: wait for it a little.
        String where = "kind = 'AUDIT_READ' and method = 'audit/search' and detail like ? and event_time >= ? order by id";
        Wait.holdsWithin(Duration.ofSeconds(5), () -> AuditRow.list(where, "%uriPrefix=" + prefix + "%", before).size() >= 2);
        List<AuditRow> records = AuditRow.list(where, "%uriPrefix=" + prefix + "%", before);
        assertEquals(List.of("ok", "error"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals("ALLOW", records.get(1).decision);
        assertTrue(records.get(1).detail.endsWith("not answered: the call failed after it was let in (HTTP 503)"), records.get(1).detail);
        assertNull(records.get(1).bytes);
        assertEquals(records.get(0).requestId, answer.headers().firstValue("X-Request-Id").orElse(null), "the answer names the record");
        assertTrue(answer.body().contains("the audit log's database failed during this read"), answer.body());
    }

    @Test
    void aCallWhoseRecordTheLogDoesNotConfirmIsRefused503AndItsRecordNeverStandsAlone() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        String prefix = "file:///docs/unconfirmed-" + System.nanoTime() + "/";
        Instant before = Instant.now();
        HttpResponse<String> answer;
        // The writer idle first (an earlier call's record stored), so the batch the lock stops below is the one that holds
        // this call's record.
        String earlier = given().auth().oauth2(auditor).get("/audit/search?limit=1").then().statusCode(200).extract()
                .header("X-Request-Id");
        Wait.until("an earlier call on record", Duration.ofSeconds(20), () -> !AuditRow.list("request_id = ?", earlier).isEmpty());
        // The audit table locked: the writer takes the call's record into a batch that cannot commit until the lock is
        // gone, well after the call's wait for it (the commit timeout) has ended.
        try (Connection lock = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                Connection watch = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            try {
                var pending = HttpClient.newHttpClient().sendAsync(search(prefix, auditor), HttpResponse.BodyHandlers.ofString());
                // The writer has taken the call's record: its insert waits for the lock (seen from another connection, as
                // a transaction keeps one view of pg_stat_activity).
                try (var q = watch.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE '%INSERT INTO audit_entry%'")) {
                    Wait.until("the writer's insert waits for the lock", Duration.ofSeconds(10), () -> {
                        try (var rs = q.executeQuery()) {
                            return rs.next() && rs.getLong(1) > 0;
                        }
                    });
                }
                answer = pending.get();
            } finally {
                lock.rollback();
            }
        }
        assertEquals(503, answer.statusCode(), answer.body());
        assertEquals("5", answer.headers().firstValue("Retry-After").orElse(null));
        assertTrue(answer.body().contains("the audit log is unavailable; nothing was read"), answer.body());
        assertTrue(answer.headers().firstValue("X-Request-Id").isEmpty(), "no record is named: none was confirmed");

        // Once the lock is gone, the record the writer had taken is stored, and then the writer follows it with one saying
        // the call was refused. A later call's record, once stored, comes after both.
        String later = given().auth().oauth2(auditor).get("/audit/search?limit=1").then().statusCode(200).extract()
                .header("X-Request-Id");
        Wait.until("a later call on record", Duration.ofSeconds(20), () -> !AuditRow.list("request_id = ?", later).isEmpty());
        String where = "kind = 'AUDIT_READ' and method = 'audit/search' and detail like ? and event_time >= ? order by seq";
        List<AuditRow> records = AuditRow.list(where, "%uriPrefix=" + prefix + "%", before);
        assertEquals(List.of("ok", "aborted"), records.stream().map(r -> r.outcome).toList(),
                "never ok alone, never aborted alone: " + records);
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id: " + records);
        assertEquals("not answered: the audit log did not confirm this record in time, and the call was refused for it",
                records.get(1).detail.substring(records.get(1).detail.indexOf("not answered")), records.get(1).detail);
    }

    private HttpRequest search(String uriPrefix, String token) {
        return HttpRequest.newBuilder(URI.create(base + "audit/search?uriPrefix=" + URLEncoder.encode(uriPrefix, StandardCharsets.UTF_8)))
                .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).build();
    }
}
