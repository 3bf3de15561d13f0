package dev.quaestor.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The retention lock (a preservation lock): rows in {@code retention_lock}, only ever added, each naming an age in
 * months below which no run may archive. The largest is in force: a new lock may raise it, never lower it, and nothing
 * in configuration lifts it.
 */
final class RetentionLock {

    private RetentionLock() {
    }

    /** The locked minimum age in months, or 0 when no lock was ever set. */
    static int minimumAge(Connection c) throws SQLException {
        try (var rs = c.createStatement().executeQuery("SELECT COALESCE(MAX(min_age_months), 0) FROM retention_lock")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * Locks at {@code ageMonths}; refused (with the reason) when that would lower the lock in force. Either way the
     * outcome is written to {@code retention_run}, as a run's is, for the server to put on the audit log: a lock set
     * is stored in one transaction with its record ({@code locked}), so a lock whose record cannot be written is not
     * set, and a lock this returns as set is on record.
     */
    static String lock(Connection c, int ageMonths, String reason) throws SQLException {
        var started = OffsetDateTime.now(ZoneOffset.UTC);
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            // One lock at a time, so that the lock it raises is the one in force.
            try (var s = c.createStatement()) {
                s.execute("LOCK TABLE retention_lock IN SHARE ROW EXCLUSIVE MODE");
            }
            int current = minimumAge(c);
            String refusal = null;
            String summary;
            if (ageMonths < current) {
                refusal = "refused: the lock keeps " + current + " month(s) online; a lock may raise the age, never lower it";
                summary = refusal;
            } else {
                long id = insertLock(c, ageMonths, reason);
                summary = "locked (lock " + id + "): no run may archive a month younger than " + ageMonths + " month(s)"
                        + (current == 0 ? "; no lock was set before" : "; the lock was " + current + " month(s)");
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO retention_run (started_at, finished_at, age_months, outcome,"
                    + " summary, run_by) VALUES (?, ?, ?, ?, ?, current_user)")) {
                ps.setObject(1, started);
                ps.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
                ps.setInt(3, ageMonths);
                ps.setString(4, refusal == null ? "locked" : "refused");
                ps.setString(5, "lock at " + ageMonths + " month(s) (reason: " + reason + "): " + summary);
                ps.executeUpdate();
            }
            c.commit();
            return refusal;
        } catch (SQLException | RuntimeException e) {
            try {
                c.rollback();
            } catch (SQLException notRolledBack) {
                e.addSuppressed(notRolledBack);
            }
            throw e;
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static long insertLock(Connection c, int ageMonths, String reason) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO retention_lock (min_age_months, locked_at, locked_by, reason)"
                + " VALUES (?, ?, current_user, ?) RETURNING id")) {
            ps.setInt(1, ageMonths);
            ps.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
            ps.setString(3, reason);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Whether the connection may archive: only the owner can write archive markers. */
    static boolean isOwner(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT has_table_privilege('audit_archive', 'INSERT')")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
