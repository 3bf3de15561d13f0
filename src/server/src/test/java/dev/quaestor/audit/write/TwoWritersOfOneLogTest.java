package dev.quaestor.audit.write;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;

import dev.quaestor.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

import static dev.quaestor.audit.write.Intercept.call;
import static dev.quaestor.audit.write.Intercept.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two writers of one log at once, as when a writer lease is given back while its writer is still storing, or lost
 * while its writer has not yet noticed: the second reads the head, the first stores more, and the second's batch would
 * then take seqs the first has just used. In a later month than the first's records, no unique index of the monthly
 * partitions sees the two; the log's head does. The second's batch is refused with nothing stored, its waiters fail,
 * and once it has read the head again it carries on after the first's records: one record per seq, and the log
 * verifies.
 */
@QuarkusTest
class TwoWritersOfOneLogTest {

    private static final Instant MAY = Instant.parse("2021-05-10T08:00:00Z");
    private static final Instant JUNE = Instant.parse("2021-06-10T08:00:00Z");
    private static final Caller CALLER = new Caller("bob", null, null, List.of(), "10.0.0.2", "agent", "s", null, null, null);

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Test
    void aBatchPlacedAfterAHeadAnotherWriterMovedIsRefusedAndTheLogStaysWhole() throws Exception {
        String chain = "two-writers-" + System.nanoTime();
        var first = writer(ds, chain, MAY);
        first.start();
        first.append(decision("first-1", MAY));

        // The second reads the head (seq 2) and is held just before it stores its first batch: its start and second-1.
        var gate = new Gate();
        var second = writer(gate.around(ds), chain, JUNE);
        PendingCommit refused = second.submit(decision("second-1", JUNE), null);
        second.start();
        assertTrue(gate.arrived.await(10, TimeUnit.SECONDS), "the second writer reached its first store");

        // Meanwhile the first stores seqs 3 and 4 in May, and ends (its stop at 5); then the second's batch goes, for
        // seqs 3 and 4 in June.
        // Within a minute of the writer's fixed clock: a record dated after the checkpoint that covers it does not verify.
        first.append(decision("first-2", MAY.plusSeconds(20)));
        first.append(decision("first-3", MAY.plusSeconds(40)));
        first.stop();
        gate.open.countDown();
        boolean stored;
        try {
            refused.await();
            stored = true;
        } catch (AuditUnavailableException e) {
            stored = false;
        }

        assertEquals(List.of(), seqsStoredTwice(chain), "no seq holds two records");
        assertFalse(stored, "the second writer's batch is refused");

        // The second reads the head again and carries on after the first's stop, saying what it refused.
        second.append(decision("second-2", JUNE.plusSeconds(20)));
        second.stop();

        assertEquals(List.of("1 AUDIT_START", "2 DECISION first-1", "3 DECISION first-2", "4 DECISION first-3", "5 AUDIT_STOP",
                "6 AUDIT_START", "7 AUDIT_PAUSE", "8 DECISION second-2", "9 AUDIT_STOP"), records(chain));
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
        assertEquals(9, check.size());
        assertEquals(9, check.lastCheckpoint(), "the second writer's stop signed the whole log");
    }

    @Test
    void aWriterReadingALogWhoseHeadIsBehindItsRecordsCatchesItUpAndCarriesOn() throws Exception {
        String chain = "head-behind-" + System.nanoTime();
        var earlier = writer(ds, chain, MAY);
        earlier.start();
        earlier.append(decision("earlier-1", MAY));
        earlier.stop();
        // As if the records were stored by a version that kept no head, after the head was filled in.
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.createStatement().execute("UPDATE audit_head SET size = 1 WHERE chain_id = '" + chain + "'");
        }

        var later = writer(ds, chain, JUNE);
        later.start();
        later.append(decision("later-1", JUNE));
        later.stop();

        assertEquals(List.of("1 AUDIT_START", "2 DECISION earlier-1", "3 AUDIT_STOP", "4 AUDIT_START", "5 DECISION later-1",
                "6 AUDIT_STOP"), records(chain));
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
    }

    private GroupCommitWriter writer(DataSource source, String chain, Instant now) {
        return new GroupCommitWriter(source, config, log.signingKey(), FieldHasher.none(), chain, new SimpleMeterRegistry(),
                Clock.fixed(now, ZoneOffset.UTC));
    }

    private static AuditEvent decision(String requestId, Instant time) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, requestId).time(time).caller(CALLER).protocol("2025-06-18")
                .method("resources/read").action("read").uri("file:///w/" + requestId).decision("ALLOW")
                .rules(List.of("r")).policyRevision("rev").build();
    }

    /** Each record of the log in seq order: seq, kind and (for a decision) request id. */
    private static List<String> records(String chain) throws Exception {
        var out = new ArrayList<String>();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var ps = c.prepareStatement("SELECT seq, kind, request_id FROM audit_entry WHERE chain_id = ? ORDER BY seq, event_time")) {
            ps.setString(1, chain);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(2);
                    out.add(rs.getLong(1) + " " + kind + (kind.equals("DECISION") ? " " + rs.getString(3) : ""));
                }
            }
        }
        return out;
    }

    private static List<Long> seqsStoredTwice(String chain) throws Exception {
        var out = new ArrayList<Long>();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var ps = c.prepareStatement("SELECT seq FROM audit_entry WHERE chain_id = ? GROUP BY seq HAVING COUNT(*) > 1 ORDER BY seq")) {
            ps.setString(1, chain);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
        }
        return out;
    }

    /** Holds the first batch statement sent through it until opened; later ones go at once. */
    private static final class Gate {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CountDownLatch open = new CountDownLatch(1);
        private final AtomicBoolean used = new AtomicBoolean();

        DataSource around(DataSource real) {
            return proxy(DataSource.class, real, (target, method, args) -> {
                Object out = call(target, method, args);
                return method.getName().equals("getConnection") ? connection((Connection) out) : out;
            });
        }

        private Connection connection(Connection real) {
            return proxy(Connection.class, real, (target, method, args) -> {
                Object out = call(target, method, args);
                if (method.getName().equals("prepareStatement") && args[0].equals(SealedBatch.POSTGRES_INSERT)) {
                    return statement((PreparedStatement) out);
                }
                return out;
            });
        }

        private PreparedStatement statement(PreparedStatement real) {
            return proxy(PreparedStatement.class, real, (target, method, args) -> {
                if (method.getName().equals("execute") && used.compareAndSet(false, true)) {
                    arrived.countDown();
                    if (!open.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the gate was never opened");
                    }
                }
                return call(target, method, args);
            });
        }
    }
}
