package dev.quaestor.audit.write;

import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestPostgres;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.TreeMap;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The log heads a database migrated from before they were kept starts with: each log's last seq, from its records or,
 * all of them archived, from its last archive marker, on PostgreSQL (partitioned records) and on H2 (the dev profile).
 * Then a head moves only from where it is, and a writer reading a log catches its head up with the records but never
 * moves it back.
 */
class AuditHeadMigrationTest {

    private static final String BEFORE_HEADS = "18.8";

    @Test
    void onPostgresEveryLogCarriesOnFromItsLastRecord() throws Exception {
        String db = TestDatabase.NAME + "_heads";
        try (var admin = TestPostgres.get().admin(); var s = admin.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + db);
            s.execute("CREATE DATABASE " + db);
        }
        try {
            String url = TestPostgres.get().jdbcUrl(db);
            var flyway = flyway(url, TestPostgres.SUPERUSER, "db/migration/postgresql");
            flyway.target(BEFORE_HEADS).load().migrate();
            try (var c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
                c.createStatement().execute("SELECT quaestor_audit_ensure_partition('2021-05-01'), "
                        + "quaestor_audit_ensure_partition('2021-06-01')");
                records(c);
            }
            flyway.target("latest").load().migrate();
            try (var c = DriverManager.getConnection(url, TestPostgres.SUPERUSER, "")) {
                assertEquals(Map.of("a", 3L, "b", 5L, "c", 7L), heads(c));
                movesOnlyFromWhereItIs(c);
            }
        } finally {
            try (var admin = TestPostgres.get().admin(); var s = admin.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS " + db);
            }
        }
    }

    @Test
    void onH2EveryLogCarriesOnFromItsLastRecord() throws Exception {
        String url = "jdbc:h2:mem:heads;DB_CLOSE_DELAY=-1";
        var flyway = flyway(url, "sa", "db/migration/h2");
        flyway.target(BEFORE_HEADS).load().migrate();
        try (var c = DriverManager.getConnection(url, "sa", "")) {
            records(c);
            flyway.target("latest").load().migrate();
            assertEquals(Map.of("a", 3L, "b", 5L, "c", 7L), heads(c));
            movesOnlyFromWhereItIs(c);
        }
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration flyway(String url, String user, String dialect) {
        return Flyway.configure().dataSource(url, user, "").locations("classpath:db/migration/common", "classpath:" + dialect)
                .placeholders(Map.of("appRole", "__none__"));
    }

    /**
     * Log a: seqs 1 to 3 in May; log b: 1 and 2 in May, 3 to 5 in June; log c: all archived, its marker at 7; and a
     * record of no log (written before logs had ids).
     */
    private static void records(Connection c) throws SQLException {
        String insert = "INSERT INTO audit_entry (event_time, request_id, kind, chain_id, seq) VALUES ";
        c.createStatement().execute(insert + "(TIMESTAMP WITH TIME ZONE '2021-05-02 00:00:00+00', 'r', 'DECISION', 'a', 1),"
                + " (TIMESTAMP WITH TIME ZONE '2021-05-03 00:00:00+00', 'r', 'DECISION', 'a', 2),"
                + " (TIMESTAMP WITH TIME ZONE '2021-05-04 00:00:00+00', 'r', 'DECISION', 'a', 3),"
                + " (TIMESTAMP WITH TIME ZONE '2021-05-02 00:00:00+00', 'r', 'DECISION', 'b', 1),"
                + " (TIMESTAMP WITH TIME ZONE '2021-05-03 00:00:00+00', 'r', 'DECISION', 'b', 2),"
                + " (TIMESTAMP WITH TIME ZONE '2021-06-02 00:00:00+00', 'r', 'DECISION', 'b', 3),"
                + " (TIMESTAMP WITH TIME ZONE '2021-06-03 00:00:00+00', 'r', 'DECISION', 'b', 4),"
                + " (TIMESTAMP WITH TIME ZONE '2021-06-04 00:00:00+00', 'r', 'DECISION', 'b', 5),"
                + " (TIMESTAMP WITH TIME ZONE '2021-06-04 00:00:00+00', 'r', 'DECISION', NULL, NULL)");
        c.createStatement().execute("INSERT INTO audit_archive (chain_id, seq, entry_hash, before_time, records)"
                + " VALUES ('c', 7, 'h', TIMESTAMP WITH TIME ZONE '2021-05-01 00:00:00+00', 7)");
    }

    private static void movesOnlyFromWhereItIs(Connection c) throws SQLException {
        c.setAutoCommit(false);
        HeadRow.move(c, "a", 3, 5);
        c.commit();
        assertThrows(HeadRow.Moved.class, () -> HeadRow.move(c, "a", 3, 4), "a writer that read seq 3 is refused");
        c.rollback();
        c.setAutoCommit(true);
        HeadRow.catchUp(c, "a", 4); // records behind the head: it stays
        HeadRow.catchUp(c, "b", 6); // records past it (stored without a head): it catches up
        HeadRow.catchUp(c, "d", 0); // a new log
        assertEquals(Map.of("a", 5L, "b", 6L, "c", 7L, "d", 0L), heads(c));
    }

    private static Map<String, Long> heads(Connection c) throws SQLException {
        var out = new TreeMap<String, Long>();
        try (var rs = c.createStatement().executeQuery("SELECT chain_id, size FROM audit_head")) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }
}
