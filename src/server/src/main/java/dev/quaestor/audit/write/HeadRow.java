package dev.quaestor.audit.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.jboss.logging.Logger;

/**
 * A log's row in {@code audit_head}: its stored size. Each batch moves it from the size its writer read to the batch's
 * new size, in the same transaction as the batch, and only if it still holds the size the writer read; else nothing of
 * the batch is stored ({@link Moved}). Two writers of one log (a lease given back while the old writer was still
 * storing, or lost without its writer noticing yet) can then never both store a record at one seq, not even across a
 * month boundary, where no unique index of {@code audit_entry}'s monthly partitions would see the two. One row update
 * per batch, whatever its size.
 */
final class HeadRow {

    private static final Logger LOG = Logger.getLogger(HeadRow.class);

    /**
     * The head's move in the PostgreSQL batch statement, a data-modifying CTE: parameters the new size, the log, the
     * size the writer read; it returns a row only if the head moved. The row lock it takes orders two writers' batches:
     * the second waits for the first to commit, then finds the head moved.
     */
    static final String POSTGRES_MOVE = "head AS (UPDATE audit_head SET size = ? WHERE chain_id = ? AND size = ? RETURNING 1)";

    /** The log's head moved since this writer read it (another writer's batch): nothing of the batch was stored. */
    static final class Moved extends SQLException {
        Moved(String log, long from, long to) {
            super("the head of log " + log + " is no longer at seq " + from + ", where this writer had it:"
                    + " nothing of the batch (" + (to > from + 1 ? "seqs " + (from + 1) + " to " + to
                            : to > from ? "seq " + to : "a checkpoint at seq " + from)
                    + ") was stored; the head is read again");
        }
    }

    private HeadRow() {
    }

    /** Binds {@link #POSTGRES_MOVE}'s parameters from {@code p}; returns the next parameter's index. */
    static int bind(PreparedStatement ps, int p, String log, long from, long to) throws SQLException {
        ps.setLong(p, to);
        ps.setString(p + 1, log);
        ps.setLong(p + 2, from);
        return p + 3;
    }

    /** Moves the head in the caller's transaction, or throws {@link Moved} (any JDBC database). */
    static void move(Connection c, String log, long from, long to) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE audit_head SET size = ? WHERE chain_id = ? AND size = ?")) {
            bind(ps, 1, log, from, to);
            if (ps.executeUpdate() != 1) {
                throw refused(log, from, to);
            }
        }
    }

    /** What the batch store throws when the head did not move, said once in the server log. */
    static Moved refused(String log, long from, long to) {
        var e = new Moved(log, from, to);
        LOG.errorf("%s. Another process stored into this log while this one still wrote it (a writer lease given back"
                + " or lost while a batch was on its way), or the log was changed in the database; the log stays whole,"
                + " and this batch's records are refused", e.getMessage());
        return e;
    }

    /**
     * With the log's head just read from its records ({@code size}): makes the row exist and hold at least that size.
     * A brand new log gets its row here; a row behind the records (records stored by a version that kept no head, while
     * a newer one migrated) catches up. The head never moves back, so a writer that read a size the log has passed
     * still finds it moved.
     */
    static void catchUp(Connection c, String log, long size) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE audit_head SET size = ? WHERE chain_id = ? AND size < ?")) {
            ps.setLong(1, size);
            ps.setString(2, log);
            ps.setLong(3, size);
            ps.executeUpdate();
        }
        // A second writer adding the same new log at once fails here, before it stores anything, and reads again.
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO audit_head (chain_id, size) SELECT CAST(? AS VARCHAR(128)), CAST(? AS BIGINT)"
                        + " WHERE NOT EXISTS (SELECT 1 FROM audit_head WHERE chain_id = ?)")) {
            ps.setString(1, log);
            ps.setLong(2, size);
            ps.setString(3, log);
            ps.executeUpdate();
        }
    }
}
