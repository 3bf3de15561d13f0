package dev.quaestor.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditStream;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.TestPostgres;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A streamed OCSF export of 1,000,000 audit records (500,000 requests, each a DECISION and an OUTCOME, so 500,000
 * events) in constant memory: the records are synthetic rows bulk-inserted into a scratch database (they need not
 * verify), exported by the console's own code from a database cursor to a stream that only counts bytes. Heap is
 * measured after a full GC before, half-way through (what the export holds while it runs) and after.
 */
class OcsfExportMillionTest {

    static final int RECORDS = 1_000_000;
    static final long MIB = 1024 * 1024;

    @Test
    void aMillionRecordsExportInConstantMemory() throws Exception {
        String url = ScratchDatabase.recreate("ocsf_million");
        Flyway.configure().dataSource(url, TestPostgres.SUPERUSER, "").locations("classpath:db/migration/common",
                "classpath:db/migration/postgresql").placeholders(Map.of("appRole", "__none__")).load().migrate();
        long insertStart = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            c.createStatement().execute("SELECT quaestor_audit_ensure_partition(date_trunc('month', now()))");
            c.createStatement().execute("INSERT INTO audit_entry (format, chain_id, seq, event_time, request_id, kind, subject, client_id, "
                    + "tenant, roles, source_ip, user_agent, auth_context, protocol, method, action, uri, decision, rules, policy_revision, "
                    + "outcome, bytes, content_sha256, latency_us, entry_hash) "
                    + "SELECT '2', 'scratch', g, date_trunc('month', now()) + g * interval '1 millisecond', "
                    + "lpad(((g + 1) / 2)::text, 26, '0'), CASE WHEN g % 2 = 1 THEN 'DECISION' ELSE 'OUTCOME' END, "
                    + "'user' || (g % 997), 'client-' || (g % 7), 'acme', 'clinician', '10.0.' || (g % 250) || '.' || (g % 199), "
                    + "'agent/1.0', 'acr=1;amr=pwd', '2025-06-18', 'resources/read', 'read', "
                    + "'file:///docs/records/' || ((g + 1) / 2) || '.md', CASE WHEN g % 2 = 1 THEN "
                    + "(CASE WHEN g % 10 = 1 THEN 'DENY' ELSE 'ALLOW' END) END, CASE WHEN g % 2 = 1 THEN 'rule-' || (g % 13) END, "
                    + "repeat('ab', 32), CASE WHEN g % 2 = 0 THEN 'ok' END, CASE WHEN g % 2 = 0 THEN 1024 + g % 4096 END, "
                    + "CASE WHEN g % 2 = 0 THEN md5(g::text) || md5((g + 1)::text) END, g % 5000, md5(g::text) || md5(g::text) "
                    + "FROM generate_series(1, " + RECORDS + ") g");
            c.createStatement().execute("ANALYZE audit_entry");
        }
        System.out.printf("inserted %,d synthetic records in %.1f s%n", RECORDS, (System.nanoTime() - insertStart) / 1e9);

        var memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc();
        long[] midway = {-1};
        var counter = new OutputStream() {
            long bytes;
            long lines;

            @Override
            public void write(int b) {
                bytes++;
                if (b == '\n' && ++lines == RECORDS / 4) {
                    midway[0] = usedAfterGc();
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                for (int i = off; i < off + len; i++) {
                    write(b[i]);
                }
            }
        };
        var export = new SearchExport("test");
        long start = System.nanoTime();
        long events;
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            var all = new AuditQuery(null, null, null, null, null, null, null, null, null, null, null, 1);
            events = export.write(ExportFormat.OCSF, each -> AuditStream.stream(c, null, all, true, each), counter);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long after = usedAfterGc();
        System.out.printf("OCSF export: %,d records -> %,d events, %,d bytes in %.1f s: %,.0f records/s, %,.0f events/s, %.1f MiB/s%n",
                RECORDS, events, counter.bytes, seconds, RECORDS / seconds, events / seconds, counter.bytes / seconds / MIB);
        System.out.printf("heap used after GC: before %.1f MiB, half-way %.1f MiB, after %.1f MiB (max heap %.0f MiB)%n",
                before / (double) MIB, midway[0] / (double) MIB, after / (double) MIB, memory.getHeapMemoryUsage().getMax() / (double) MIB);

        assertEquals(RECORDS / 2, events, "one event per request");
        assertEquals(RECORDS / 2, counter.lines);
        assertTrue(midway[0] > 0, "measured half-way");
        assertTrue(midway[0] - before < 64 * MIB, "the export holds little while it runs: " + (midway[0] - before) / MIB + " MiB");
        assertTrue(after - before < 16 * MIB, "nothing is retained: " + (after - before) / MIB + " MiB");
        // A sample event is a whole OCSF event.
        try (Connection c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
            var sample = new java.io.ByteArrayOutputStream();
            var one = new AuditQuery(null, null, null, "file:///docs/records/1.md", null, null, null, null, null, null, null, 1);
            export.write(ExportFormat.OCSF, each -> AuditStream.stream(c, null, one, true, each), sample);
            var node = new ObjectMapper().readTree(sample.toString(StandardCharsets.UTF_8));
            OcsfFields.check(node);
            assertEquals("Blocked", node.path("disposition").asText(), node.toString());
        }
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
