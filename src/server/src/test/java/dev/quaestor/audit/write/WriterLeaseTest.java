package dev.quaestor.audit.write;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.TestPostgres;
import java.sql.DriverManager;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The writer lease on PostgreSQL: a second lease on a log that is held is refused with the setting to change, and
 * granted once the first is given back; a lease given back is never taken again; a lease whose connection the database
 * ended is taken again on a new one.
 */
class WriterLeaseTest {

    private static PGSimpleDataSource database() {
        var ds = new PGSimpleDataSource();
        ds.setUrl(TestPostgres.get().jdbcUrl("postgres"));
        ds.setUser(TestPostgres.SUPERUSER);
        return ds;
    }

    @Test
    void aSecondLeaseOnALogThatIsHeldIsRefusedAndGrantedOnceTheFirstIsGivenBack() throws Exception {
        String chain = "lease-" + System.nanoTime();
        var first = new WriterLease(database(), chain, "quaestor.audit/" + chain);
        var second = new WriterLease(database(), chain, "quaestor.audit/" + chain);
        first.take();
        try {
            var refused = assertThrows(WriterLease.Taken.class, second::take);
            assertTrue(refused.getMessage().contains("quaestor.audit.chain-id (QUAESTOR_AUDIT_CHAIN_ID)"), refused.getMessage());
            // Another log is another lease.
            var other = new WriterLease(database(), chain + "-other", "quaestor.audit/" + chain + "-other");
            other.take();
            other.close();
        } finally {
            first.close();
        }
        second.take();
        second.close();
    }

    @Test
    void aLeaseGivenBackIsNeverTakenAgainAndLeavesTheLogFree() throws Exception {
        String chain = "lease-" + System.nanoTime();
        var lease = new WriterLease(database(), chain, "quaestor.audit/" + chain);
        lease.take();
        lease.close();
        // A writer still finishing after its stop asks again: refused, and the log stays free for the next process.
        var again = assertThrows(WriterLease.Taken.class, lease::take);
        assertTrue(again.getMessage().contains("given back"), again.getMessage());
        var next = new WriterLease(database(), chain, "quaestor.audit/" + chain);
        next.take();
        next.close();
    }

    @Test
    void aLeaseWhoseConnectionTheDatabaseEndedIsTakenAgain() throws Exception {
        String chain = "lease-" + System.nanoTime();
        var lease = new WriterLease(database(), chain, "quaestor.audit/" + chain);
        lease.take();
        try (var admin = DriverManager.getConnection(TestPostgres.get().jdbcUrl("postgres"), TestPostgres.SUPERUSER, "");
                var s = admin.prepareStatement("SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                        + "AND ((classid::bigint << 32) | objid::bigint) = ?")) {
            s.setLong(1, WriterLease.key(chain));
            try (var rs = s.executeQuery()) {
                assertTrue(rs.next() && rs.getBoolean(1), "the lease's backend was ended");
            }
        }
        Thread.sleep(200);
        lease.take(); // its connection is gone: taken again on a new one
        try {
            var rival = new WriterLease(database(), chain, "quaestor.audit/" + chain);
            assertThrows(WriterLease.Taken.class, rival::take, "held again");
        } finally {
            lease.close();
        }
    }
}
