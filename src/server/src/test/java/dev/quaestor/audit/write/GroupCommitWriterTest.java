package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditUnavailableException;

import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.Wait;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group-commit writer on PostgreSQL, with its own log: batches the database refuses (a trigger
 * this test installs refuses request ids starting {@code refuse-}) fail every waiter in them and leave no gap: exactly the appends that
 * returned are stored, and the log verifies. A request's outcome queued behind its decision is
 * stored only if the decision is. Shutdown commits what was queued, records the stop and signs the
 * head. The writer records its start, and a pause once it commits again after refusing records.
 */
@QuarkusTest
class GroupCommitWriterTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Inject
    AuditSearch reader;

    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    /** A database that refuses some rows: what a batch meets when, say, a constraint or the disk says no. */
    @BeforeAll
    static void refuseMarkedRows() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_marked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.request_id LIKE 'refuse-%' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
            s.execute("DROP TRIGGER IF EXISTS test_refuse_marked ON audit_entry");
            s.execute("CREATE TRIGGER test_refuse_marked BEFORE INSERT ON audit_entry FOR EACH ROW EXECUTE FUNCTION test_refuse_marked()");
        }
    }

    @AfterAll
    static void acceptAllRows() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS test_refuse_marked ON audit_entry");
        }
    }

    private GroupCommitWriter writer(String chain) {
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), chain, metrics);
        w.start();
        return w;
    }

    private static AuditEvent event(String requestId) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, requestId)
                .caller(new Caller("bob", null, null, List.of(), "10.0.0.2", "tab\there\\ and\nnewline", "s", null, null, null))
                .protocol("2025-06-18").method("resources/read").action("read").uri("file:///w/" + requestId).decision("ALLOW")
                .rules(List.of("r")).policyRevision("rev").build();
    }

    /** The request ids of the log's DECISION records (the writer adds records of its own life). */
    private static Set<String> stored(String chain) throws Exception {
        var out = new HashSet<String>();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT request_id FROM audit_entry WHERE chain_id = '" + chain
                        + "' AND kind = 'DECISION'")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** Every record's leaf hash, the tree at every checkpoint and every checkpoint's signature, from the database. */
    private LogCheck.Result assertChainVerifies(String chain, long decisions) throws Exception {
        var r = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        assertEquals(decisions, r.kinds().getOrDefault("DECISION", 0L));
        assertEquals(1L, r.kinds().get("AUDIT_START"), "the writer recorded its start");
        return r;
    }

    @Test
    void refusedBatchesLeaveNoGapAndOnlyTheirOwnRecordsMissing() throws Exception {
        String chain = "writer-test-" + System.nanoTime();
        var w = writer(chain);
        // One at a time first: good, refused, good.
        w.append(event("ok-1"));
        assertThrows(AuditUnavailableException.class, () -> w.append(event("refuse-x")));
        w.append(event("ok-2"));

        // Then 16 threads, some appends refused by the database, other batches before and after them.
        var returned = ConcurrentHashMap.<String>newKeySet();
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < 16; t++) {
            int id = t;
            var th = new Thread(() -> {
                for (int i = 0; i < 40; i++) {
                    String rid = (i % 13 == 7 ? "refuse-y-" : "ok-") + id + "-" + i;
                    try {
                        w.append(event(rid));
                        returned.add(rid);
                    } catch (AuditUnavailableException e) {
                        // refused: this record and its batch-mates must not be stored
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        for (Thread t : threads) {
            t.join();
        }
        w.stop();
        returned.add("ok-1");
        returned.add("ok-2");
        assertTrue(returned.size() < 16 * 40 + 2 && returned.size() > 2, "some appends were refused, others not: " + returned.size());
        assertEquals(returned, stored(chain), "stored records are exactly the appends that returned");
        var check = assertChainVerifies(chain, returned.size());
        assertTrue(check.kinds().getOrDefault("AUDIT_PAUSE", 0L) >= 1, "commits after refusals record the pause: " + check.kinds());
        assertEquals(1L, check.kinds().get("AUDIT_STOP"));

        // The metrics tell the same story.
        long attempted = 16 * 40 + 3;
        assertEquals(attempted - returned.size(), (long) metrics.get("quaestor.audit.failures").counter().count());
        var batches = metrics.get("quaestor.audit.batch.size").summary();
        assertEquals(returned.size() + 1, (long) batches.totalAmount(),
                "committed batch sizes add up to the stored records and the AUDIT_STOP queued at shutdown");
        assertTrue(metrics.get("quaestor.audit.commit").timer().count() == batches.count() && batches.count() > 0);
        assertEquals(0.0, metrics.get("quaestor.audit.queue.depth").gauge().value());
    }

    @Test
    void anOutcomeIsNeverStoredWithoutItsDecision() throws Exception {
        String chain = "writer-pair-" + System.nanoTime();
        var w = writer(chain);
        var kept = new HashSet<String>();
        for (int i = 0; i < 60; i++) {
            // Each decision is queued and its outcome queued behind it at once, as a read does. Every third
            // decision is refused by the database; its outcome may share its batch, follow in a later batch
            // or find it already failed when queued: in every case the outcome must fail and not be stored.
            boolean bad = i % 3 == 1;
            PendingCommit decision = w.submit(event((bad ? "refuse-z" : "d") + "-" + i), null);
            PendingCommit outcome;
            try {
                outcome = w.submit(event("o-" + i), decision);
            } catch (AuditUnavailableException refusedAtOnce) {
                assertTrue(bad, "only an outcome behind a failed decision is refused when queued");
                continue;
            }
            if (bad) {
                assertThrows(AuditUnavailableException.class, outcome::await);
                assertThrows(AuditUnavailableException.class, decision::await);
            } else {
                outcome.await();
                assertTrue(decision.done.isDone() && !decision.failed(), "an outcome commits only after its decision has");
                kept.add("d-" + i);
                kept.add("o-" + i);
            }
        }
        w.stop();
        assertEquals(kept, stored(chain), "exactly the good pairs are stored");
        assertChainVerifies(chain, kept.size());
    }

    @Test
    void anOutcomeQueuedWhileItsDecisionIsBeingStoredFailsWithIt() throws Exception {
        String chain = "writer-orphan-" + System.nanoTime();
        var w = writer(chain);
        w.append(event("first")); // the head is known, so the next batch goes straight to its insert
        var depth = metrics.get("quaestor.audit.queue.depth").gauge();
        PendingCommit decision;
        PendingCommit outcome;
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            // Hold the decision's batch in its insert, so the outcome is queued behind it and goes in a later batch.
            c.setAutoCommit(false);
            c.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            decision = w.submit(event("refuse-z"), null); // refused by the database once it gets the table
            Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(1), () -> depth.value() <= 0);
            assertEquals(0.0, depth.value(), "the writer took the decision's batch");
            assertTrue(!decision.done.isDone(), "the decision's batch is still waiting for the table");
            outcome = w.submit(event("orphan"), decision);
            c.rollback();
        }
        assertThrows(AuditUnavailableException.class, decision::await);
        assertThrows(AuditUnavailableException.class, outcome::await);
        w.append(event("after"));
        w.stop();
        assertEquals(Set.of("first", "after"), stored(chain), "the outcome was not stored without its decision");
        assertChainVerifies(chain, 2);
    }

    @Test
    void shutdownCommitsWhatIsQueuedAndSignsTheHead() throws Exception {
        String chain = "writer-stop-" + System.nanoTime();
        var w = writer(chain);
        for (int i = 0; i < 200; i++) {
            assertTrue(w.offer(event("q-" + i)));
        }
        w.stop();
        assertEquals(200, stored(chain).size());
        var check = assertChainVerifies(chain, 200);
        assertEquals(check.size(), check.lastCheckpoint(), "the final head, after AUDIT_STOP, is signed");
        assertEquals(1L, check.kinds().get("AUDIT_STOP"));
        assertEquals("AUDIT_STOP", lastKind(chain), "nothing lands after the AUDIT_STOP");
        assertThrows(AuditUnavailableException.class, () -> w.append(event("after-stop")));
    }

    /**
     * Records and checkpoints removed behind the writer's back (here as a DBA would, with the immutability triggers
     * bypassed; a restored backup does the same): the log read again is shorter than the writer left it, and the writer
     * stores nothing more, so that it never signs a second history at sizes it has signed once. The log is cut back to
     * a checkpoint, so what is left verifies (the other tests' checks of every log in the database see it whole).
     */
    @Test
    void aLogCutBackInTheDatabaseIsNotWrittenOn() throws Exception {
        String chain = "writer-cut-" + System.nanoTime();
        var w = writer(chain);
        for (int i = 0; i < 10; i++) {
            w.append(event("kept-" + i));
        }
        w.signNow().get(10, java.util.concurrent.TimeUnit.SECONDS);
        long cut = w.headSeq();
        for (int i = 0; i < 10; i++) {
            w.append(event("removed-" + i));
        }
        w.signNow().get(10, java.util.concurrent.TimeUnit.SECONDS);
        long before = w.headSeq();
        assertTrue(before >= cut + 10, "twenty records after the start: " + cut + ", " + before);
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("SET session_replication_role = replica");
            s.execute("DELETE FROM audit_entry WHERE chain_id = '" + chain + "' AND seq > " + cut);
            s.execute("DELETE FROM audit_checkpoint WHERE chain_id = '" + chain + "' AND seq > " + cut);
            s.execute("DELETE FROM audit_tree_node WHERE chain_id = '" + chain + "' AND (idx + 1) * (CAST(1 AS BIGINT) << level) > " + cut);
            s.execute("UPDATE audit_head SET size = " + cut + " WHERE chain_id = '" + chain + "'");
        }
        // The first batch after finds the head moved and reads the log again; then the log is found cut back.
        for (int i = 0; i < 3; i++) {
            String rid = "after-" + i;
            assertThrows(AuditUnavailableException.class, () -> w.append(event(rid)), "nothing is stored after the cut");
        }
        assertEquals(before, w.headSeq(), "the head this writer committed stands, for the online check");
        w.stop();
        assertEquals(Set.of("kept-0", "kept-1", "kept-2", "kept-3", "kept-4", "kept-5", "kept-6", "kept-7", "kept-8", "kept-9"),
                stored(chain), "no record stored at a seq signed once");
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), "what is left verifies: " + check.problems());
        assertEquals(cut, check.size());
    }

    private static String lastKind(String chain) throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT kind FROM audit_entry WHERE chain_id = '" + chain
                        + "' ORDER BY seq DESC LIMIT 1")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
