package dev.quaestor.provider.database;

import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestPostgres;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A PostgreSQL database with sample records for the database provider's tests, on the tests' server
 * ({@link TestPostgres}, user postgres). Named after QUAESTOR_TEST_DB so checkouts testing side by
 * side do not share it; re-created from scratch on every call.
 */
public final class ContentDatabase {

    public static final String NAME = TestDatabase.NAME + "_content";
    public static final byte[] PHOTO = {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1, (byte) 0xfe};

    private ContentDatabase() {
    }

    /** Its JDBC URL. */
    public static String url() {
        return TestPostgres.get().jdbcUrl(NAME);
    }

    public static synchronized void reset() {
        try (var c = TestPostgres.get().admin();
                var check = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            check.setString(1, NAME);
            if (!check.executeQuery().next()) {
                try (var s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + NAME);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot create " + NAME + ": " + e.getMessage(), e);
        }
        try (var c = DriverManager.getConnection(url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS patients");
            s.execute("CREATE TABLE patients (id integer PRIMARY KEY, name text NOT NULL, ward text NOT NULL,"
                    + " born date, admitted timestamptz, meta jsonb, photo bytea, notes text)");
            try (var ins = c.prepareStatement("INSERT INTO patients VALUES (?, ?, ?, ?, ?, ?::jsonb, ?, ?)")) {
                Object[][] rows = {
                    {1, "Ada Lovelace", "north", "1815-12-10", "2026-01-02T03:04:05Z", "{\"allergies\":[\"penicillin\"]}", PHOTO, "line one\nline \"two\", with comma"},
                    {2, "O'Brien", "north", null, null, null, null, null},
                    {3, "Grace Hopper", "south", "1906-12-09", null, "{}", null, "ok"},
                    {4, "Alan Turing", "south", "1912-06-23", null, null, null, null},
                    {5, "Katherine Johnson", "east", "1918-08-26", null, null, null, null},
                    {6, "Edsger Dijkstra", "east", "1930-05-11", null, null, null, null},
                    {7, "Barbara Liskov", "west", "1939-11-07", null, null, null, null},
                };
                for (Object[] r : rows) {
                    ins.setInt(1, (Integer) r[0]);
                    ins.setString(2, (String) r[1]);
                    ins.setString(3, (String) r[2]);
                    ins.setDate(4, r[3] == null ? null : java.sql.Date.valueOf((String) r[3]));
                    ins.setObject(5, r[4] == null ? null : java.time.OffsetDateTime.parse((String) r[4]));
                    ins.setString(6, (String) r[5]);
                    ins.setBytes(7, (byte[]) r[6]);
                    ins.setString(8, (String) r[7]);
                    ins.executeUpdate();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    public static int count() throws SQLException {
        try (var c = DriverManager.getConnection(url(), "postgres", ""); var s = c.createStatement();
                var rs = s.executeQuery("SELECT count(*) FROM patients")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    public static String nameOf(int id) throws SQLException {
        try (var c = DriverManager.getConnection(url(), "postgres", "");
                var s = c.prepareStatement("SELECT name FROM patients WHERE id = ?")) {
            s.setInt(1, id);
            var rs = s.executeQuery();
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
