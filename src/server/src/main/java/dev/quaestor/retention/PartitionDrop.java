package dev.quaestor.retention;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Archives a month in the database: in one transaction, with the holds locked against change, it checks that every
 * record a hold covers has been kept ({@link HeldCopy#notKept}), then {@code quaestor_audit_archive} checks the month
 * again, writes each log's archive marker, and detaches and drops the partition. Detaching locks {@code audit_entry}, and the writer's
 * inserts would queue behind that lock while any long read holds the table; so each try waits at most
 * {@code lockTimeout} for its locks, gives up (nothing written), and tries again later, until {@code retryFor} has
 * passed. Serving never stops for retention.
 */
final class PartitionDrop {

    /** The lock was not granted within lock_timeout (PostgreSQL's {@code lock_not_available}). */
    static final String LOCK_NOT_AVAILABLE = "55P03";

    /** One log's archive marker: archived up to {@code seq}, {@code records} of them in this month. */
    record Marker(String log, long seq, String hash, long records) {
    }

    /**
     * The markers written, and how many tries found the table held by another session; or, with nothing dropped, how
     * many of the month's records a hold put since its held records were kept covers ({@code notKept} over 0).
     */
    record Dropped(List<Marker> markers, int lockTimeouts, long notKept) {

        boolean done() {
            return notKept == 0;
        }
    }

    private PartitionDrop() {
    }

    /** Drops the month, retrying on lock timeouts; null when it never got its locks within {@code retryFor}. */
    static Dropped drop(Connection c, ArchiveMonth m, long records, RetentionOptions o, PrintStream log)
            throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + o.retryFor().toNanos();
        int timeouts = 0;
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            while (true) {
                try {
                    c.createStatement().execute("SET LOCAL lock_timeout = '" + o.lockTimeout().toMillis() + "ms'");
                    // The holds as they are now, and none changed until this commits: a hold put while the month was
                    // being exported must find its records kept before they go.
                    c.createStatement().execute("LOCK TABLE legal_hold, audit_case_request IN SHARE MODE");
                    long notKept = HeldCopy.notKept(c, m);
                    if (notKept > 0) {
                        c.rollback();
                        return new Dropped(List.of(), timeouts, notKept);
                    }
                    var markers = new ArrayList<Marker>();
                    try (PreparedStatement ps = c.prepareStatement("SELECT chain_id, seq, entry_hash, records FROM quaestor_audit_archive(?, ?)")) {
                        ps.setObject(1, OffsetDateTime.ofInstant(m.to(), ZoneOffset.UTC));
                        ps.setLong(2, records);
                        try (ResultSet rs = ps.executeQuery()) {
                            while (rs.next()) {
                                markers.add(new Marker(rs.getString(1), rs.getLong(2), rs.getString(3), rs.getLong(4)));
                            }
                        }
                    }
                    c.commit();
                    return new Dropped(markers, timeouts, 0);
                } catch (SQLException e) {
                    c.rollback();
                    if (!LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
                        throw e;
                    }
                    timeouts++;
                    if (System.nanoTime() + o.retryEvery().toNanos() > deadline) {
                        log.println("  " + m.month() + ": audit_entry was held by another session on each of " + timeouts
                                + " tries; the month stays in the database for the next run");
                        return null;
                    }
                    log.println("  " + m.month() + ": the detach waited " + o.lockTimeout().toMillis() + " ms for a long read on"
                            + " audit_entry and gave way (try " + timeouts + "); trying again in " + o.retryEvery().toSeconds() + " s");
                    Thread.sleep(o.retryEvery().toMillis());
                }
            }
        } finally {
            c.setAutoCommit(auto);
        }
    }
}
