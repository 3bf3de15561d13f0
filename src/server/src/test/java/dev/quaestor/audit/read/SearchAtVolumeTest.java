package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.TestPostgres;
import dev.quaestor.support.Wait;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's four searches over 1,000,000 audit records on PostgreSQL: the newest records; the denials of the last
 * hour; who read a folder last week, and how often; one person's reads of a day. For each, the first page (newest
 * first, 50 records), the last page and the total, as the console asks them ({@link AuditSearch#window},
 * {@link AuditSearch#totals} with the console's cap of 100,000, {@link AuditTally#tally}), each timed five times
 * after one warm-up; the median must be under 500 ms. The records are written straight into the table by
 * {@code generate_series} in the shape the writer stores (they need not verify): 30 days up to now, a record every
 * 2.6 s, requests of 25 people and 5 clients, each read a DECISION and an OUTCOME, one request in 25 denied (a DENY
 * DECISION alone), one in 101 a read of the deal room's folder, a summary of refused attempts now and then, and the
 * staff's own page views ({@code AUDIT_READ}), which a search leaves out.
 */
class SearchAtVolumeTest {

    static final int RECORDS = 1_000_000;
    static final int CAP = 100_000;
    static final long BOUND_MS = 500;
    static final String FOLDER = "file:///deals/atlas/";

    @Test
    void theFourSearchesAnswerUnder500MsOverAMillionRecords() throws Exception {
        String url = ScratchDatabase.recreate("search_volume");
        Flyway.configure().dataSource(url, TestPostgres.SUPERUSER, "").locations("classpath:db/migration/common",
                "classpath:db/migration/postgresql").placeholders(Map.of("appRole", "__none__")).load().migrate();
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant start = now.minus(Duration.ofDays(30));
        long insert = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            for (Instant m = start; !m.isAfter(now.plus(Duration.ofDays(31))); m = m.plus(Duration.ofDays(28))) {
                c.createStatement().execute("SELECT quaestor_audit_ensure_partition(TIMESTAMP WITH TIME ZONE '" + m + "')");
            }
            // g: the record; r = (g + 1) / 2: its request. Request r is denied when r % 25 = 0 (its second record, an
            // OUTCOME, then becomes the staff's page view); it reads the deal room when r % 101 = 7; every 5,000th record
            // is a summary of refused attempts.
            c.createStatement().execute("INSERT INTO audit_entry (format, chain_id, seq, event_time, request_id, kind, subject, client_id, "
                    + "tenant, roles, source_ip, user_agent, auth_context, protocol, method, action, uri, decision, rules, policy_revision, "
                    + "outcome, bytes, content_sha256, latency_us, event_count, entry_hash) "
                    + "SELECT '3', 'volume', g, TIMESTAMP WITH TIME ZONE '" + start + "' + g * interval '2592 milliseconds', "
                    + "lpad(r::text, 26, '0'), "
                    + "CASE WHEN g % 5000 = 1 THEN 'ATTEMPT_SUMMARY' WHEN g % 2 = 1 THEN 'DECISION' WHEN r % 25 = 0 THEN 'AUDIT_READ' "
                    + "ELSE 'OUTCOME' END, "
                    + "CASE WHEN g % 2 = 0 AND r % 25 = 0 THEN 'officer' || (r % 3) ELSE 'user' || (r % 25) END, "
                    + "'client-' || (r % 5), 'bank', 'staff', '10.0.' || (r % 250) || '.' || (r % 199), 'agent/1.0', 'acr=1;amr=pwd', "
                    + "'2025-11-25', CASE WHEN g % 2 = 0 AND r % 25 = 0 THEN 'console/search' ELSE 'resources/read' END, "
                    + "CASE WHEN g % 2 = 0 AND r % 25 = 0 THEN NULL ELSE 'read' END, "
                    + "CASE WHEN g % 2 = 0 AND r % 25 = 0 THEN NULL WHEN r % 101 = 7 THEN '" + FOLDER + "' || (r % 400) || '.pdf' "
                    + "ELSE 'file:///clients/c' || (r * 7919 % 20000) || '/statement.pdf' END, "
                    + "CASE WHEN g % 5000 = 1 OR (g % 2 = 1 AND r % 25 = 0) THEN 'DENY' WHEN g % 2 = 1 THEN 'ALLOW' END, "
                    + "CASE WHEN g % 2 = 1 THEN 'rule-' || (r % 13) END, repeat('ab', 32), "
                    + "CASE WHEN g % 5000 = 1 THEN 'forbidden' WHEN g % 2 = 0 THEN 'ok' END, "
                    + "CASE WHEN g % 2 = 0 THEN 1024 + g % 4096 END, CASE WHEN g % 2 = 0 THEN md5(g::text) || md5((g + 1)::text) END, "
                    + "g % 5000, CASE WHEN g % 5000 = 1 THEN 40 END, md5(g::text) || md5(g::text) "
                    + "FROM generate_series(1::bigint, " + RECORDS + ") g, LATERAL (SELECT (g + 1) / 2 AS r) req");
            c.createStatement().execute("VACUUM ANALYZE audit_entry");
            try (var rs = c.createStatement().executeQuery("SELECT count(*) FROM audit_entry")) {
                rs.next();
                assertEquals(RECORDS, rs.getLong(1));
            }
        }
        Thread.sleep(2000); // the statistics of the count above are in before the searches are watched
        System.out.printf("inserted %,d records (30 days up to %s) and analyzed in %.1f s%n", RECORDS, now,
                (System.nanoTime() - insert) / 1e9);

        var ds = new PGSimpleDataSource();
        ds.setUrl(url);
        ds.setUser(TestPostgres.SUPERUSER);
        Supplier<FieldHasher> hasher = FieldHasher::none;
        var search = new AuditSearch(ds, hasher);
        var tally = new AuditTally(ds, hasher);
        Instant day = now.truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(3));
        var searches = List.of(
                new Named("newest records", query(null, null, null, null, null, null)),
                new Named("denials of the last hour", query(null, null, "DENY", null, now.minus(Duration.ofHours(1)), null)),
                new Named("who read " + FOLDER + " last week", query(null, FOLDER, null, null, now.minus(Duration.ofDays(7)), null)),
                new Named("user7's reads of " + day.atOffset(ZoneOffset.UTC).toLocalDate(), query("user7", null, null, "read", day,
                        day.plus(Duration.ofDays(1)))));
        long seqRowsBefore = seqRowsRead(url);
        long worst = 0;
        for (Named s : searches) {
            var first = time(() -> search.window(s.query, new SearchPaging(true, 50, SearchPaging.From.FIRST, 0)));
            var last = time(() -> search.window(s.query, new SearchPaging(true, 50, SearchPaging.From.LAST, 0)));
            var totals = time(() -> search.totals(s.query, CAP));
            System.out.printf("%-40s first page %s | last page %s | count %s: %s%s%n", s.name, first, last, totals,
                    totals.result.capped() ? "more than " : "", String.format("%,d records, %,d events", totals.result.records(),
                            totals.result.events()));
            assertFalse(first.result.records().isEmpty(), s.name);
            assertFalse(last.result.records().isEmpty(), s.name);
            assertTrue(first.result.records().stream().noneMatch(r -> r.kind() == AuditEvent.Kind.AUDIT_READ), "staff reads are left out");
            worst = Math.max(worst, Math.max(first.median, Math.max(last.median, totals.median)));
            assertTrue(first.median < BOUND_MS && last.median < BOUND_MS && totals.median < BOUND_MS, s.name + ": " + first + " " + last
                    + " " + totals);
            if (s.name.startsWith("who read")) {
                var bySubject = time(() -> tally.tally(s.query, AuditTally.By.SUBJECT, "UTC", 50));
                System.out.printf("%-40s by person %s: %s%n", "  and how often", bySubject, bySubject.result.subList(0, 3));
                assertEquals(25, bySubject.result.size(), "every one of the 25 read the folder last week");
                assertTrue(bySubject.median < BOUND_MS, "who read, by person: " + bySubject);
            }
        }
        System.out.printf("slowest median: %d ms (bound %d ms)%n", worst, BOUND_MS);
        // No page, count or tally read a whole month: PostgreSQL counted no row read by a sequential scan of the log's
        // large partitions. A month with few rows yet (early on its first day, this month's) may rightly be scanned:
        // reading its few rows costs less than its index.
        Thread.sleep(2000); // the searches' connections report their statistics as they end
        long seqRows = seqRowsRead(url) - seqRowsBefore;
        System.out.printf("rows read by sequential scans of audit_entry's partitions during the searches: %d%n", seqRows);
        // The probe sees a sequential scan: 1,000 rows of a large partition read by one, after the searches.
        long beforeScan = seqRowsRead(url);
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            String partition;
            try (var rs = c.createStatement().executeQuery("SELECT relname FROM pg_stat_user_tables WHERE relname LIKE "
                    + "'audit\\_entry\\_%' AND n_live_tup > " + RECORDS / 10 + " ORDER BY relname LIMIT 1")) {
                assertTrue(rs.next(), "a large partition");
                partition = rs.getString(1);
            }
            try (var rs = c.createStatement().executeQuery("EXPLAIN SELECT entry_hash FROM " + partition + " LIMIT 1000")) {
                String plan = "";
                while (rs.next()) {
                    plan += rs.getString(1) + "\n";
                }
                assertTrue(plan.contains("Seq Scan on " + partition), plan);
            }
            try (var rs = c.createStatement().executeQuery("SELECT entry_hash FROM " + partition + " LIMIT 1000")) {
                int rows = 0;
                while (rs.next()) {
                    rows++;
                }
                assertEquals(1000, rows);
            }
        }
        Wait.until("the deliberate sequential scan counted", Duration.ofSeconds(10), () -> seqRowsRead(url) - beforeScan >= 1000);
        assertEquals(0, seqRows, "a search read a whole partition");
    }

    private static long seqRowsRead(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "");
                var rs = c.createStatement().executeQuery("SELECT coalesce(sum(seq_tup_read), 0) FROM pg_stat_user_tables "
                        + "WHERE relname LIKE 'audit\\_entry\\_%' AND n_live_tup > " + RECORDS / 10)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static AuditQuery query(String subject, String uriPrefix, String decision, String action, Instant from, Instant to) {
        // As the search page asks: the staff's own reads of the log left out.
        return new AuditQuery(subject, null, null, uriPrefix, action, decision, null, null, "AUDIT_READ", from, to, null, 50);
    }

    record Named(String name, AuditQuery query) {
    }

    /** What an operation returned, and its times in ms (after a warm-up): the median and all five. */
    record Timed<T>(T result, long median, long[] all) {
        @Override
        public String toString() {
            return median + " ms " + Arrays.toString(all);
        }
    }

    private static <T> Timed<T> time(Supplier<T> op) {
        T result = op.get();
        long[] ms = new long[5];
        for (int i = 0; i < ms.length; i++) {
            long t = System.nanoTime();
            result = op.get();
            ms[i] = (System.nanoTime() - t) / 1_000_000;
        }
        long[] sorted = ms.clone();
        Arrays.sort(sorted);
        return new Timed<>(result, sorted[2], ms);
    }
}
