package dev.quaestor.audit.read;

import dev.quaestor.audit.config.AuditPools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.HeldMonth;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * What an audit search may cost the database: a search by URI prefix reads a range of an index, not the whole log;
 * and a statement that runs past the audit query timeout is ended by the database and answered 503, saying what to
 * narrow, with the call on record.
 */
@QuarkusTest
@TestProfile(AuditSearchBoundsTest.ShortQueries.class)
class AuditSearchBoundsTest {

    public static class ShortQueries implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.audit.query-timeout-ms", "1500");
        }
    }

    @io.quarkus.test.common.http.TestHTTPResource("/")
    java.net.URI base;

    @Inject
    @io.quarkus.agroal.DataSource(AuditPools.READ)
    AgroalDataSource reads;

    @Test
    void aUriPrefixSearchReadsARangeOfTheUriIndexNotTheWholeLog() throws Exception {
        var query = new AuditQuery(null, null, null, "file:///docs/handbook/", null, null, null, null, null, null, null, 50);
        var where = query.where(null);
        String plan;
        try (var c = reads.getConnection()) {
            c.setAutoCommit(false);
            try (var s = c.createStatement()) {
                // On a small log reading it whole (in order of id, or not) is cheapest anyway; without those two ways
                // only an index that the condition itself selects from can serve the search.
                s.execute("SET LOCAL enable_seqscan = off");
                s.execute("SET LOCAL enable_indexscan = off");
            }
            try (var ps = c.prepareStatement("EXPLAIN " + AuditSearch.pageSql(where, false, 50))) {
                AuditSearch.bind(ps, where.args());
                var out = new StringBuilder();
                try (var rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.append(rs.getString(1)).append('\n');
                    }
                }
                plan = out.toString();
            } finally {
                c.rollback();
                c.setAutoCommit(true);
            }
        }
        assertTrue(Pattern.compile("Index Cond: .*uri\\)::text ~>=~ 'file:///docs/handbook/'").matcher(plan).find(),
                "the URI prefix is a range of the URI index:\n" + plan);
        assertTrue(!plan.contains("Seq Scan"), "no month of the log is read whole:\n" + plan);
    }

    @Test
    void aSearchPastTheQueryTimeoutIsAnswered503WithWhatToNarrowAndIsOnRecord() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        String detail = "uriPrefix=file:///docs/timeout-" + System.nanoTime() + "/";
        Instant before = Instant.now();
        String searchId;
        // A month of the log that a search of every month must read, held by another transaction: the search waits
        // for it until its statement runs out of time. The writer writes this month, which stays free.
        try (var held = HeldMonth.hold()) {
            long started = System.nanoTime();
            // The client gives up after 20 s: a search without a timeout would wait for the month as long as it is held.
            var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(base + "audit/search?uriPrefix=" + java.net.URLEncoder.encode(
                            detail.substring("uriPrefix=".length()), java.nio.charset.StandardCharsets.UTF_8)))
                    .header("Authorization", "Bearer " + auditor).timeout(java.time.Duration.ofSeconds(20)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("did not finish this read within 1500 ms"), answer.body());
            assertTrue(answer.body().contains("quaestor.audit.query-timeout-ms"), answer.body());
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(tookMillis < 10_000, "ended at the timeout, not when the month was free: " + tookMillis + " ms");
            searchId = answer.headers().firstValue("X-Request-Id").orElse(null);
        }
        assertNotNull(searchId, "the 503 names the search's record");
        List<AuditRow> records = AuditRow.list("kind = 'AUDIT_READ' and method = 'audit/search' and detail like ? and event_time >= ?"
                + " order by id", "%" + detail + "%", before);
        assertEquals(2, records.size(), "the search is on record, and so is its end: " + records);
        assertEquals(List.of(searchId, searchId), records.stream().map(r -> r.requestId).toList(), "under one request id");
        assertEquals("ok", records.get(0).outcome, "let in");
        assertEquals("timeout", records.get(1).outcome, "then not answered: the ok does not stand alone");
        assertEquals("ALLOW", records.get(1).decision);
        assertTrue(records.get(1).detail.contains("not answered: the audit log's database did not finish this read within 1500 ms"),
                records.get(1).detail);
    }

    @Test
    void aBundleWhoseSearchRunsPastTheQueryTimeoutIsAnswered503AndIsOnRecordAsNotMade() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        String prefix = "file:///docs/bundle-timeout-" + System.nanoTime() + "/";
        // As above: a month that a search of every month must read, held by another transaction.
        String requestId;
        try (var held = HeldMonth.hold()) {
            var answer = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(base + "audit/bundle")).header("Authorization", "Bearer " + auditor)
                    .header("Content-Type", "application/json").timeout(java.time.Duration.ofSeconds(20))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"search\":{\"uriPrefix\":\"" + prefix + "\"}}")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("quaestor.audit.query-timeout-ms"), answer.body());
            requestId = answer.headers().firstValue("X-Request-Id").orElse(null);
        }
        var made = AuditRow.list("method = 'audit/bundle/made' and detail like ?", "%uriPrefix=" + prefix + "%");
        assertEquals(List.of("not-made"), made.stream().map(r -> r.outcome).toList(), "the bundle not made is on record");
        assertTrue(made.get(0).detail.endsWith("not made: the audit log's database did not finish a read within the audit query timeout"),
                made.get(0).detail);
        var call = AuditRow.list("request_id = ? and method = 'audit/bundle'", made.get(0).requestId);
        assertEquals(List.of("ok"), call.stream().map(r -> r.outcome).toList(), "under the call's request id");
        if (requestId != null) {
            assertEquals(requestId, made.get(0).requestId);
        }
    }

    @Test
    void aCaseReadPastTheQueryTimeoutIsOnRecordAsLetInThenTimeout() throws Exception {
        String auditor = TestIssuer.tokenFor("auditor");
        var http = java.net.http.HttpClient.newHttpClient();
        var opened = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "audit/cases"))
                .header("Authorization", "Bearer " + auditor).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"title\":\"Slow\"}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(201, opened.statusCode(), opened.body());
        long caseId = io.restassured.path.json.JsonPath.from(opened.body()).getLong("id");
        var added = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "audit/cases/" + caseId + "/searches"))
                .header("Authorization", "Bearer " + auditor).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"name\":\"all\",\"query\":\"uriPrefix=file:///docs/case-timeout-"
                        + System.nanoTime() + "/\"}")).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, added.statusCode(), added.body());
        long searchId = io.restassured.path.json.JsonPath.from(added.body()).getLong("searches[0].id");
        String requestId;
        // As above: a month that a count of every month must read, held by another transaction.
        try (var held = HeldMonth.hold()) {
            var answer = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "audit/cases/" + caseId
                    + "/searches/" + searchId + "/count")).header("Authorization", "Bearer " + auditor)
                    .timeout(java.time.Duration.ofSeconds(20)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(503, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("quaestor.audit.query-timeout-ms"), answer.body());
            requestId = answer.headers().firstValue("X-Request-Id").orElse(null);
        }
        assertNotNull(requestId, "the 503 names the read's record");
        // On record as let in before the count was read, then as not answered, under one request id and the case's uri.
        List<AuditRow> records = AuditRow.list("request_id = ? order by id", requestId);
        assertEquals(List.of("ok", "timeout"), records.stream().map(r -> r.outcome).toList(), records.toString());
        for (AuditRow r : records) {
            assertEquals("AUDIT_READ", r.kind);
            assertEquals("audit/cases/search-count", r.method);
            assertEquals("ALLOW", r.decision);
            assertEquals(dev.quaestor.cases.AuditCase.uriOf(caseId), r.uri);
        }
        assertTrue(records.get(1).detail.contains("not answered: the audit log's database did not finish this read within 1500 ms"),
                records.get(1).detail);
    }

    @Test
    void aConsoleSearchPastTheQueryTimeoutIsAConsolePageNamingItsRecordAndIsOnRecordAsTimeout() throws Exception {
        var console = dev.quaestor.support.ConsoleSession.signIn("auditor");
        String prefix = "file:///docs/console-timeout-" + System.nanoTime() + "/";
        Instant before = Instant.now();
        io.restassured.response.Response page;
        // As above: a month that a search of every month must read, held by another transaction.
        try (var held = HeldMonth.hold()) {
            page = console.get("/console/search?uriPrefix=" + prefix); // REST Assured encodes the query
        }
        String html = page.body().asString();
        assertEquals(503, page.statusCode(), html);
        assertTrue(page.contentType().startsWith("text/html"), "a console page, not the API's JSON: " + page.contentType());
        assertTrue(html.contains("did not finish this read within 1500 ms"), html);
        assertTrue(html.contains("narrow"), "says what to narrow: " + html);
        String requestId = page.header("X-Request-Id");
        assertNotNull(requestId, "the page names the view's record");
        assertTrue(html.contains(requestId), "the page shows the record's request id: " + html);
        List<AuditRow> records = AuditRow.list("kind = 'AUDIT_READ' and method = 'console/search' and detail like ? and event_time >= ?"
                + " order by id", "%" + prefix + "%", before);
        assertEquals(List.of("ok", "timeout"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(List.of(requestId, requestId), records.stream().map(r -> r.requestId).toList(), "under the view's request id");
        assertTrue(records.get(1).detail.contains("not answered: the audit log's database did not finish this read within 1500 ms"),
                records.get(1).detail);
    }
}
