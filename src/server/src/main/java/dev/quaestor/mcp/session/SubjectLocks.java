package dev.quaestor.mcp.session;

import dev.quaestor.jdbc.Transactions;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;

/**
 * A transaction that runs alone for its subject: what it counts cannot change under it before it commits. In this
 * process the subject's stripe of a small set of locks is held; on PostgreSQL the transaction also takes an advisory
 * lock on the subject (its key the first 8 bytes of a SHA-256 of the subject), which holds across replicas and ends
 * with the transaction. H2 is a single process's database, so the lock in the process is all it needs. Either wait is
 * bounded ({@link #WAIT_MILLIS}); past it the transaction fails with an {@link SQLException}.
 */
final class SubjectLocks {

    static final long WAIT_MILLIS = 3_000;

    private final ReentrantLock[] stripes = new ReentrantLock[64];
    private volatile Boolean postgres;

    SubjectLocks() {
        for (int i = 0; i < stripes.length; i++) {
            stripes[i] = new ReentrantLock();
        }
    }

    /** Runs {@code work} in one transaction on {@code ds} while no other transaction of this subject's runs. */
    <T> T underLock(DataSource ds, String subject, Transactions.Work<T> work) throws SQLException {
        ReentrantLock local = stripes[Math.floorMod(subject.hashCode(), stripes.length)];
        try {
            if (!local.tryLock(WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new SQLException("the subject's lock was not free within " + WAIT_MILLIS + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted waiting for the subject's lock", e);
        }
        try {
            return Transactions.inTransaction(ds, c -> {
                if (postgres(c)) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET LOCAL lock_timeout = '" + WAIT_MILLIS + "ms'");
                    }
                    try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                        ps.setLong(1, key(subject));
                        ps.execute();
                    }
                }
                return work.run(c);
            });
        } finally {
            local.unlock();
        }
    }

    private boolean postgres(Connection c) throws SQLException {
        Boolean known = postgres;
        if (known == null) {
            known = "PostgreSQL".equals(c.getMetaData().getDatabaseProductName());
            postgres = known;
        }
        return known;
    }

    /** The subject's advisory lock key. */
    static long key(String subject) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(("quaestor.mcp-session/" + subject).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, 8).getLong();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
