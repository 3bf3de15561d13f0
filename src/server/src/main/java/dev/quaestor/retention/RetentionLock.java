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
     * Locks at {@code ageMonths}; refused (with the reason) when that would lower the lock in force, and the refusal is
     * written to {@code retention_run} as a refused run's is, for the server to put on the audit log.
     */
    static String lock(Connection c, int ageMonths, String reason) throws SQLException {
        var started = OffsetDateTime.now(ZoneOffset.UTC);
        int current = minimumAge(c);
        if (ageMonths < current) {
            String refusal = "refused: the lock keeps " + current + " month(s) online; a lock may raise the age, never lower it";
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO retention_run (started_at, finished_at, age_months, outcome,"
                    + " summary, run_by) VALUES (?, ?, ?, 'refused', ?, current_user)")) {
                ps.setObject(1, started);
                ps.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
                ps.setInt(3, ageMonths);
                ps.setString(4, "lock at " + ageMonths + " month(s) (reason: " + reason + "): " + refusal);
                ps.executeUpdate();
            }
            return refusal;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO retention_lock (min_age_months, locked_at, locked_by, reason) VALUES (?, ?, current_user, ?)")) {
            ps.setInt(1, ageMonths);
            ps.setObject(2, OffsetDateTime.now(ZoneOffset.UTC));
            ps.setString(3, reason);
            ps.executeUpdate();
        }
        return null;
    }

    /** Whether the connection may archive: only the owner can write archive markers. */
    static boolean isOwner(Connection c) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery("SELECT has_table_privilege('audit_archive', 'INSERT')")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }
}
