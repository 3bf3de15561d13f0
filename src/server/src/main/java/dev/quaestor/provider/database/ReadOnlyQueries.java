package dev.quaestor.provider.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Semaphore;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import javax.sql.DataSource;

/**
 * Runs a statement in a read-only transaction with a statement timeout, and always rolls it back.
 * On PostgreSQL the transaction is declared {@code READ ONLY} and {@code statement_timeout} is
 * set for it alone ({@code SET LOCAL}), so the server itself refuses writes and stops long queries;
 * on other databases the JDBC read-only hint and query timeout are what applies. A pooled
 * connection is handed back with its auto-commit and read-only state restored, so a mount can
 * share a datasource with the rest of the server.
 */
final class ReadOnlyQueries {

    /** Reads what one statement returns; called with an open result set. */
    interface Reader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    /** A value and its binding. */
    record Bound(ParameterType type, Object value) {
    }

    /** The statement ran past its time limit. */
    static final class QueryTimeoutException extends RuntimeException {
        QueryTimeoutException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final DataSource dataSource;
    private final Duration timeout;
    /** The connections this mount may hold at once, when it shares its datasource; null when the pool is its own. */
    private final Semaphore share;
    private final int shareSize;

    ReadOnlyQueries(DataSource dataSource, Duration timeout, int share) {
        this.dataSource = dataSource;
        this.timeout = timeout;
        this.share = share > 0 ? new Semaphore(share) : null;
        this.shareSize = share;
    }

    <T> T run(String sql, List<Bound> params, int maxRows, Reader<T> reader) throws SQLException {
        if (share == null) {
            return runOnConnection(sql, params, maxRows, reader);
        }
        // A mount on a shared datasource holds at most its share of the pool, so that the server's own users of it
        // (sessions, subscriptions, the readiness check) always find a connection however busy the mount is.
        if (!share.tryAcquire()) {
            // As a full bulkhead: the mount is busy, not failing, so its circuit breaker does not count it.
            throw new BulkheadException("the mount already uses its " + shareSize + " connection(s) of the shared"
                    + " datasource (options.max-connections)");
        }
        try {
            return runOnConnection(sql, params, maxRows, reader);
        } finally {
            share.release();
        }
    }

    private <T> T runOnConnection(String sql, List<Bound> params, int maxRows, Reader<T> reader) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            boolean autoCommit = c.getAutoCommit();
            boolean readOnly = c.isReadOnly();
            try {
                c.setAutoCommit(false);
                c.setReadOnly(true);
                if (isPostgres(c)) {
                    try (Statement s = c.createStatement()) {
                        s.execute("SET TRANSACTION READ ONLY");
                        s.execute("SET LOCAL statement_timeout = " + Math.max(1, timeout.toMillis()));
                    }
                }
                try (PreparedStatement ps = c.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
                    ps.setQueryTimeout((int) Math.max(1, (timeout.toMillis() + 999) / 1000));
                    if (maxRows > 0) {
                        ps.setMaxRows(maxRows);
                        ps.setFetchSize(Math.min(maxRows, 500));
                    }
                    for (int i = 0; i < params.size(); i++) {
                        params.get(i).type().bind(ps, i + 1, params.get(i).value());
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        return reader.read(rs);
                    }
                } catch (SQLException e) {
                    if ("57014".equals(e.getSQLState()) || e instanceof java.sql.SQLTimeoutException) {
                        throw new QueryTimeoutException("query exceeded its statement timeout of " + timeout.toMillis() + " ms", e);
                    }
                    throw e;
                }
            } finally {
                try {
                    c.rollback();
                } finally {
                    c.setReadOnly(readOnly);
                    c.setAutoCommit(autoCommit);
                }
            }
        }
    }

    private static boolean isPostgres(Connection c) throws SQLException {
        return c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT).contains("postgres");
    }
}
