package dev.quaestor.audit.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Whether a batch whose store failed is in the log after all. A commit can succeed and its reply be lost with the
 * connection; it can also still be under way when the writer stops waiting for the reply (a WAL flush or a network
 * stall past the driver's socket timeout), and commit after a first look found nothing. So a look at the log answers
 * only once the PostgreSQL server process that ran the store has finished with it: if that process is still running
 * the store, it is ended ({@code pg_terminate_backend}: a transaction it has not committed rolls back) and waited
 * for. If it cannot be ended in time, or its state cannot be read, the answer is "cannot tell" ({@code null}): the
 * batch is then in doubt, never taken for not stored.
 */
final class FailedStore {

    /** How long to wait for an ended server process to be gone; the writer's thread waits with it. */
    static final Duration WAIT = Duration.ofSeconds(5);

    /** How the store statement starts; the server shows a process's current statement in {@code pg_stat_activity}. */
    private static final String STORE = SealedBatch.POSTGRES_INSERT.substring(0, 40);

    private FailedStore() {
    }

    /** Stored (true), not stored (false), or cannot tell yet (null), asked on {@code c}, a connection of its own. */
    static Boolean stored(Connection c, SealedBatch batch) throws SQLException {
        if (batch.onPostgres() && !finished(c, batch.backend())) {
            return null;
        }
        return batch.storedIn(c);
    }

    /** Whether server process {@code pid} is done with the store: gone, idle, or running something else. */
    private static boolean finished(Connection c, int pid) throws SQLException {
        if (pid == 0) {
            return false; // the process is not known: nothing says its store is over
        }
        if (!storing(c, pid)) {
            return true;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_terminate_backend(?)")) {
            ps.setInt(1, pid);
            ps.execute();
        }
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!storing(c, pid)) {
                return true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    /** Whether {@code pid} is a live server process still running (or ending in) the store statement. */
    private static boolean storing(Connection c, int pid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT state, query FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, pid);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                String state = rs.getString(1);
                String query = rs.getString(2);
                if (state == null || query == null) {
                    throw new SQLException("the state of server process " + pid + " cannot be read (track_activities is"
                            + " off, or it belongs to another role): whether its store committed cannot be told yet");
                }
                return !"idle".equals(state) && query.startsWith(STORE);
            }
        }
    }
}
