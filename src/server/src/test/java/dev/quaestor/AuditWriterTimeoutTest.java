package dev.quaestor;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * No statement on the audit writer's connections can hold its one thread for long: the database cancels one that
 * runs past the writer's statement timeout (10 s, twice the commit timeout), and the driver gives up on a connection
 * that has not answered for 15 s. A statement waiting behind a lock held on {@code audit_entry} fails at the timeout
 * instead of waiting for the lock to go.
 */
@QuarkusTest
class AuditWriterTimeoutTest {

    @Inject
    @DataSource(AuditPools.WRITER)
    AgroalDataSource writerPool;

    @Test
    void theWritersConnectionsCarryBothTimeouts() throws Exception {
        try (Connection c = writerPool.getConnection(); var rs = c.createStatement().executeQuery("SHOW statement_timeout")) {
            assertTrue(rs.next());
            assertEquals("10s", rs.getString(1));
            assertEquals(15_000, c.getNetworkTimeout(), "pgjdbc's socketTimeout, in milliseconds");
        }
    }

    @Test
    void aStatementBlockedByALockOnTheLogFailsAtTheTimeout() throws Exception {
        try (Connection lock = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            lock.setAutoCommit(false);
            // What a DBA's long maintenance would hold: the writer's inserts wait for it.
            lock.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            CompletableFuture<Long> blocked = CompletableFuture.supplyAsync(() -> {
                long t0 = System.nanoTime();
                try (Connection c = writerPool.getConnection()) {
                    c.setAutoCommit(false);
                    try {
                        // The lock an insert takes, and nothing written: the writer's batch would wait here.
                        c.createStatement().execute("LOCK TABLE audit_entry IN ROW EXCLUSIVE MODE");
                    } finally {
                        c.rollback();
                    }
                } catch (SQLException e) {
                    assertEquals("57014", e.getSQLState(), "cancelled by statement_timeout: " + e);
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                }
                throw new AssertionError("the statement waited for the lock and went on");
            });
            try {
                long waitedMs = blocked.get(20, TimeUnit.SECONDS);
                assertTrue(waitedMs >= 9_000 && waitedMs < 14_000, "failed at the 10 s statement timeout: " + waitedMs + " ms");
            } catch (TimeoutException e) {
                fail("a statement behind a lock on audit_entry still waits after 20 s");
            } catch (java.util.concurrent.ExecutionException e) {
                throw assertInstanceOf(AssertionError.class, e.getCause());
            } finally {
                lock.rollback();
            }
        }
    }
}
