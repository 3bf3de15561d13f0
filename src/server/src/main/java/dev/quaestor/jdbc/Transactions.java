package dev.quaestor.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The one way code on plain JDBC runs a transaction (the audit writer aside, which batches its own): a connection of
 * the pool, its work, then commit if the work returned and rollback if it threw. The connection goes back to the pool
 * in autocommit, as every other use of the pool expects it.
 */
public final class Transactions {

    /** Work done on the transaction's connection; what it returns is what the transaction returns. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection c) throws SQLException;
    }

    private Transactions() {
    }

    /** Runs {@code work} in one transaction on a connection of {@code dataSource}; rethrows whatever it throws. */
    public static <T> T inTransaction(DataSource dataSource, Work<T> work) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        }
    }
}
