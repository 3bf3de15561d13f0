package dev.quaestor.audit.write;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * The right to write one log, held by one live process at a time. On PostgreSQL it is a session-level advisory lock
 * on the log's chain id (its key the first 8 bytes of a SHA-256 of the chain id), taken on a connection of the
 * writer's pool that this process keeps for as long as it writes: the database ends the lock with the connection, so
 * a process that dies, however it dies, leaves the log free for the next one (a host lost with the connection open:
 * within about a minute, by TCP keepalives the connection asks for). A second process asking for a log that is held
 * is told so ({@link Taken}) before it writes anything into it.
 *
 * <p>H2 serves dev mode, where the database is a file H2 itself locks for the one process that opens it: no second
 * process reaches that log, so there is no lease to take.
 */
public final class WriterLease implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WriterLease.class);

    /** Another live process holds the lease, or this one gave it back: this one must write nothing into the log. */
    public static final class Taken extends RuntimeException {
        Taken(String message) {
            super(message, null, false, false);
        }
    }

    private final DataSource ds;
    private final String logId;
    private final String origin;
    private final long key;
    private Connection held;
    private boolean none;
    private boolean givenBack;

    public WriterLease(DataSource ds, String logId, String origin) {
        this.ds = ds;
        this.logId = logId;
        this.origin = origin;
        this.key = key(logId);
    }

    /**
     * Takes the lease, or checks that it is still held (taking it again on a new connection if the database ended
     * the old one). Throws {@link Taken} if another process holds it, or if this one gave it back (a writer still
     * finishing after its stop writes nothing more, and never takes the lease again), {@link SQLException} if the
     * database cannot be asked (then nothing may be written yet either).
     */
    public synchronized void take() throws SQLException {
        if (givenBack) {
            throw new Taken("the writer lease of log " + origin + " was given back: this process writes nothing more into it");
        }
        if (none) {
            return;
        }
        if (held != null) {
            if (held.isValid(2)) {
                return;
            }
            LOG.warnf("the connection holding the writer lease of log %s was lost; taking the lease again", origin);
            closeQuietly();
        }
        Connection c = ds.getConnection();
        try {
            if (!"PostgreSQL".equals(c.getMetaData().getDatabaseProductName())) {
                none = true;
                c.close();
                return;
            }
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            try (Statement s = c.createStatement()) {
                // A host lost with its connection open: the database probes it and ends it, and the lease, within about
                // a minute (30 s idle, then 3 probes 10 s apart), not after the system's two hours.
                s.execute("SET tcp_keepalives_idle = 30; SET tcp_keepalives_interval = 10; SET tcp_keepalives_count = 3");
            }
            boolean mine;
            try (PreparedStatement ps = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
                ps.setLong(1, key);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    mine = rs.getBoolean(1);
                }
            }
            if (!mine) {
                c.close();
                throw new Taken("another live process writes the audit log " + origin + " (chain id " + logId + "): each "
                        + "process needs a chain id of its own, set by quaestor.audit.chain-id (QUAESTOR_AUDIT_CHAIN_ID), "
                        + "which defaults to the host name; this process wrote nothing into that log");
            }
            held = c;
        } catch (SQLException | RuntimeException e) {
            if (held != c) {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // already failing
                }
            }
            throw e;
        }
    }

    /** Whether {@link #close} gave the lease back. */
    synchronized boolean givenBack() {
        return givenBack;
    }

    /** Gives the lease back (after the writer's last record): the next process may write the log at once. */
    @Override
    public synchronized void close() {
        givenBack = true;
        if (held == null) {
            return;
        }
        try (PreparedStatement ps = held.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            ps.setLong(1, key);
            ps.execute();
        } catch (SQLException e) {
            LOG.debugf("the writer lease of log %s ends with its connection: %s", origin, e.getMessage());
        }
        closeQuietly();
    }

    private void closeQuietly() {
        try {
            held.close();
        } catch (SQLException ignored) {
            // the lock ends with the connection either way
        }
        held = null;
    }

    /** The advisory lock key of a chain id. */
    static long key(String logId) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(("quaestor.audit.writer/" + logId).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 8).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
