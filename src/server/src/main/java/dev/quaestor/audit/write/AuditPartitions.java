package dev.quaestor.audit.write;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * The monthly partitions of {@code audit_entry} on PostgreSQL, which the application may create (never drop), for the
 * log's writer thread alone. Creating one locks the whole table, so it happens before a batch's transaction starts
 * (which would otherwise hold a lock it waits for), once per month and process: the month a batch needs if it is
 * missing (waiting at most the commit timeout), and next month's well ahead, with a short lock wait that is retried a
 * minute later if a long read holds the table. Other databases have no partitions; nothing is done there.
 */
final class AuditPartitions {

    private static final Logger LOG = Logger.getLogger(AuditPartitions.class);

    private final DataSource ds;
    private final Clock clock;
    private final long lockWaitMillis;
    private final Set<YearMonth> created = new HashSet<>();
    private Boolean postgres; // null until known
    private long nextAheadAttempt = System.nanoTime();

    AuditPartitions(DataSource ds, Clock clock, long lockWaitMillis) {
        this.ds = ds;
        this.clock = clock;
        this.lockWaitMillis = lockWaitMillis;
    }

    /** Whether the database is known to be PostgreSQL (known once {@link #ensure} has reached it). */
    boolean onPostgres() {
        return postgres == Boolean.TRUE;
    }

    /** Forgets which partitions exist, after a failed batch: they are looked for again. */
    void forget() {
        created.clear();
    }

    /**
     * Makes sure the partitions exist that records stamped now and at {@code times} go in; a time before the month of
     * {@code headTime} (the log's last record, null if none) is stored in the head's month, as the log's times never go
     * backwards.
     */
    void ensure(Collection<Instant> times, Instant headTime) throws SQLException {
        if (postgres == Boolean.FALSE) {
            return;
        }
        var needed = new TreeSet<YearMonth>();
        YearMonth now = month(clock.instant());
        if (!created.contains(now)) {
            needed.add(now); // the writer's own records (start, pause) are stamped now
        }
        for (Instant t : times) {
            YearMonth m = month(t);
            boolean clampedLater = headTime != null && m.isBefore(month(headTime)); // goes in the head's month
            if (!created.contains(m) && !clampedLater) {
                needed.add(m);
            }
        }
        YearMonth next = month(clock.instant()).plusMonths(1);
        boolean ahead = !created.contains(next) && System.nanoTime() - nextAheadAttempt >= 0;
        if (needed.isEmpty() && !ahead && postgres != null) {
            return;
        }
        try (Connection c = ds.getConnection()) {
            if (postgres == null) {
                postgres = c.getMetaData().getDatabaseProductName().toLowerCase(Locale.ROOT).contains("postgres");
                if (!postgres) {
                    return;
                }
            }
            c.setAutoCommit(false);
            for (YearMonth m : needed) {
                create(c, m, lockWaitMillis);
            }
            if (ahead) {
                try {
                    create(c, next, 200);
                } catch (SQLException e) {
                    nextAheadAttempt = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                    LOG.debugf("next month's audit partition not created yet (%s); retrying in a minute", e.getMessage());
                }
            }
        }
    }

    private void create(Connection c, YearMonth m, long lockWait) throws SQLException {
        try (var st = c.createStatement()) {
            st.execute("SET LOCAL lock_timeout = " + lockWait);
            try (PreparedStatement ps = c.prepareStatement("SELECT quaestor_audit_ensure_partition(?)")) {
                ps.setObject(1, m.atDay(1).atStartOfDay().atOffset(ZoneOffset.UTC));
                ps.execute();
            }
            c.commit();
            created.add(m);
        } catch (SQLException e) {
            rollback(c);
            throw e;
        }
    }

    private static YearMonth month(Instant t) {
        return YearMonth.from(t.atOffset(ZoneOffset.UTC));
    }

    private static void rollback(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; closing it is all that is left
        }
    }
}
