package dev.quaestor.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A month of the audit log (January 2001, which no test writes) held by another transaction: a read of every month
 * waits for it for as long as it is held, so a test can keep a search or a count waiting. Closing lets it go and drops
 * the month.
 */
public final class HeldMonth implements AutoCloseable {

    private final Connection admin;

    private HeldMonth(Connection admin) {
        this.admin = admin;
    }

    public static HeldMonth hold() throws SQLException {
        var admin = DriverManager.getConnection(TestDatabase.url(), TestPostgres.SUPERUSER, "");
        try {
            try (var s = admin.createStatement()) {
                s.execute("SELECT quaestor_audit_ensure_partition(TIMESTAMP WITH TIME ZONE '2001-01-15 00:00:00+00')");
            }
            admin.setAutoCommit(false);
            try (var s = admin.createStatement()) {
                s.execute("LOCK TABLE audit_entry_2001_01 IN ACCESS EXCLUSIVE MODE");
            }
            return new HeldMonth(admin);
        } catch (SQLException | RuntimeException e) {
            admin.close();
            throw e;
        }
    }

    /**
     * Ends, from outside, the database connection of a read waiting for this month (as a database failover or an
     * administrator's kill would): the read fails mid-way. False if no read came to wait within 10 s.
     */
    public boolean endTheWaitingRead() throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), TestPostgres.SUPERUSER, "");
                var ps = c.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
                        + " AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query ILIKE '%audit_entry%'")) {
            for (int i = 0; i < 200; i++) {
                try (var rs = ps.executeQuery()) {
                    if (rs.next() && rs.getBoolean(1)) {
                        return true;
                    }
                }
                Thread.sleep(50);
            }
            return false;
        }
    }

    @Override
    public void close() throws SQLException {
        try (admin) {
            admin.rollback();
            admin.setAutoCommit(true);
            try (var s = admin.createStatement()) {
                s.execute("DROP TABLE audit_entry_2001_01");
            }
        }
    }
}
