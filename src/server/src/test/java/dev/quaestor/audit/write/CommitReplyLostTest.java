package dev.quaestor.audit.write;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;

import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.Wait;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

import static dev.quaestor.audit.write.Intercept.call;
import static dev.quaestor.audit.write.Intercept.proxy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A batch's commit whose reply is lost with its connection, on PostgreSQL: the writer cannot tell it from a batch that
 * failed until it asks the database. Found stored at once, the requests go on as if the reply had come. When the
 * database cannot be asked at once (no connection), the waiters are failed, and once the head is read again a batch
 * found stored gets, after it, the record each request gave for that case (its OUTCOME {@code aborted}): no {@code ok}
 * stands alone for a request that was refused. A batch found not stored gets nothing.
 *
 * <p>The loss is made by a data source around the real one: the batch holding a record whose request id starts
 * {@code lost-reply-} is executed, then its connection "breaks" (an SQL state 08006 error, as the driver throws for
 * a broken socket); one whose id starts {@code lost-request-} breaks before it is sent. Either can also refuse the
 * next connection, so the writer cannot ask at once.
 */
@QuarkusTest
class CommitReplyLostTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    /** Marker ids whose batch broke already: a later batch with the same request id goes through. */
    private final Set<String> broken = ConcurrentHashMap.newKeySet();
    /** Connections to refuse after the next break (the database cannot be asked at once). */
    private volatile int refuseAfterBreak;
    private final AtomicInteger refusing = new AtomicInteger();
    private SimpleMeterRegistry metrics;

    @Test
    void aBatchFoundStoredAtOnceReleasesItsRequests() throws Exception {
        refuseAfterBreak = 0;
        String chain = "reply-lost-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        var pair = queuedTogether(w, "lost-reply-a");
        pair.outcome().await(); // the writer asked, found the batch stored and released it
        assertFalse(pair.decision().failed());
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION first", "DECISION blocker", "DECISION lost-reply-a", "OUTCOME lost-reply-a ok",
                "DECISION after"), requests(chain));
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
        assertEquals(0L, check.kinds().getOrDefault("AUDIT_PAUSE", 0L), "nothing was refused: " + check.kinds());
    }

    @Test
    void aBatchFoundStoredLaterGetsItsRequestsCorrections() throws Exception {
        refuseAfterBreak = 1;
        String chain = "reply-lost-later-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        var pair = queuedTogether(w, "lost-reply-b");
        assertThrows(AuditUnavailableException.class, pair.outcome()::await, "the writer could not tell: it refused");
        assertTrue(pair.decision().failed());
        w.append(decision("after")); // the head is read again: the batch is there
        w.stop();

        assertEquals(List.of("DECISION first", "DECISION blocker", "DECISION lost-reply-b", "OUTCOME lost-reply-b ok",
                "OUTCOME lost-reply-b aborted", "DECISION after"), requests(chain));
        assertEquals("the correction of lost-reply-b", detailOf(chain, "lost-reply-b", "aborted"));
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
        assertEquals(0L, check.kinds().getOrDefault("AUDIT_PAUSE", 0L), "the records were stored, not refused");
    }

    @Test
    void aRequestWhoseDecisionAndOutcomeAreBothFoundStoredLaterIsCorrectedOnce() throws Exception {
        refuseAfterBreak = 1;
        String chain = "reply-lost-once-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        // The DECISION as a read queues it: the record its request proceeds under, with its own correction.
        var pair = queuedTogether(w, "lost-reply-g", true);
        assertThrows(AuditUnavailableException.class, pair.outcome()::await);
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION first", "DECISION blocker", "DECISION lost-reply-g", "OUTCOME lost-reply-g ok",
                "OUTCOME lost-reply-g aborted", "DECISION after"), requests(chain), "one correction, the OUTCOME's");
        assertEquals("the correction of lost-reply-g", detailOf(chain, "lost-reply-g", "aborted"));
    }

    @Test
    void aDecisionAloneFoundStoredLaterGetsItsRequestsRefusal() throws Exception {
        refuseAfterBreak = 1;
        String chain = "reply-lost-decision-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        PendingCommit d = behindABlocker(w, () -> w.submitCall(decision("lost-reply-h"),
                () -> outcomeEvent("lost-reply-h", "aborted").detail("refused: nothing served").build()));
        assertThrows(AuditUnavailableException.class, d::await, "the request was refused");
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION first", "DECISION blocker", "DECISION lost-reply-h", "OUTCOME lost-reply-h aborted",
                "DECISION after"), requests(chain), "no DECISION ALLOW stands alone for a request that was refused");
        assertEquals("refused: nothing served", detailOf(chain, "lost-reply-h", "aborted"));
    }

    @Test
    void anOwedRecordWaitsOutTheDatabaseAndIsStoredWhenItAnswers() throws Exception {
        String chain = "owed-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("owed-i"));
        refusing.set(Integer.MAX_VALUE); // the database cannot be reached
        // The read's content went out, and its OUTCOME could not be committed: what it sent is owed to the log.
        w.submitOwed(outcomeEvent("owed-i", "aborted").bytes(5L).detail("cut off after its content").build());
        var refused = w.submit(decision("refused-j"), null);
        assertThrows(AuditUnavailableException.class, refused::await, "an ordinary record is refused meanwhile");
        Thread.sleep(1_000); // the writer tries again every 200 ms, and fails
        assertEquals(List.of("DECISION owed-i"), requests(chain), "nothing stored while the database is away");
        refusing.set(0);
        Wait.until("the owed record is stored", Duration.ofSeconds(10), () -> requests(chain).contains("OUTCOME owed-i aborted"));
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION owed-i", "AUDIT_PAUSE null", "OUTCOME owed-i aborted", "DECISION after"),
                requests(chain), "stored once, after the pause that counts the refused record");
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
    }

    @Test
    void aBatchFoundNotStoredGetsNothing() throws Exception {
        refuseAfterBreak = 1;
        String chain = "request-lost-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        var pair = queuedTogether(w, "lost-request-c");
        assertThrows(AuditUnavailableException.class, pair.outcome()::await);
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION first", "DECISION blocker", "AUDIT_PAUSE null", "DECISION after"), requests(chain),
                "nothing of the lost request, and the pause says two records were refused");
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
    }

    @Test
    void aStoreStillRunningWhenItsReplyIsGivenUpOnIsEndedBeforeTheLogIsAsked() throws Exception {
        refuseAfterBreak = 0;
        String chain = "reply-given-up-" + System.nanoTime();
        var w = writer(chain);
        w.append(decision("first"));
        PendingCommit given;
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.setAutoCommit(false);
            c.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            given = w.submit(decision("slow-reply-d"), null);
            // The writer stops waiting while the store waits for the lock; it must not take "not there yet" for "not
            // stored", for the store would commit as soon as the lock is released.
            assertThrows(AuditUnavailableException.class, given::await);
            c.rollback();
        }
        Thread store = abandoned.take();
        store.join(Duration.ofSeconds(15).toMillis());
        assertFalse(store.isAlive(), "the abandoned store ended");
        w.append(decision("after"));
        w.stop();

        assertEquals(List.of("DECISION first", "AUDIT_PAUSE null", "DECISION after"), requests(chain),
                "the store given up on was ended, not left to commit a record whose request was refused");
        var check = LogCheck.of(chain, log.originOf(chain), log.trustedKeys());
        assertTrue(check.problems().isEmpty(), check.problems().toString());
    }

    private record Pair(PendingCommit decision, PendingCommit outcome) {
    }

    /**
     * A request's DECISION and OUTCOME queued while the writer is held in the insert of an earlier batch, so that the
     * two go in one batch, as a fast read's do.
     */
    private Pair queuedTogether(GroupCommitWriter w, String requestId) throws Exception {
        return queuedTogether(w, requestId, false);
    }

    /** As above; {@code decisionAsCall}: the DECISION is queued as the record its request proceeds under. */
    private Pair queuedTogether(GroupCommitWriter w, String requestId, boolean decisionAsCall) throws Exception {
        return behindABlocker(w, () -> {
            PendingCommit d = decisionAsCall ? w.submitCall(decision(requestId), () -> outcomeEvent(requestId, "aborted")
                    .detail("the refusal of " + requestId).build()) : w.submit(decision(requestId), null);
            PendingCommit o = w.submit(outcome(requestId), d, () -> outcomeEvent(requestId, "aborted")
                    .detail("the correction of " + requestId).build());
            return new Pair(d, o);
        });
    }

    /**
     * Queues what {@code queue} queues while the writer is held in the insert of an earlier batch (a "blocker"), so that
     * it all goes in the writer's next batch; returns once the blocker is stored.
     */
    private <T> T behindABlocker(GroupCommitWriter w, java.util.concurrent.Callable<T> queue) throws Exception {
        PendingCommit blocker;
        T queued;
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.setAutoCommit(false);
            c.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            blocker = w.submit(decision("blocker"), null);
            var depth = metrics.get("quaestor.audit.queue.depth").gauge();
            Wait.until("the writer took the blocker's batch", Duration.ofSeconds(10), () -> depth.value() == 0);
            queued = queue.call();
            c.rollback();
        }
        blocker.await();
        return queued;
    }

    private GroupCommitWriter writer(String chain) {
        metrics = new SimpleMeterRegistry();
        var w = new GroupCommitWriter(breakable(ds), config, log.signingKey(), FieldHasher.none(), chain, metrics);
        w.start();
        return w;
    }

    private static final Caller CALLER = new Caller("bob", null, null, List.of(), "10.0.0.2", "agent", "s", null, null, null);

    private static AuditEvent decision(String requestId) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, requestId).caller(CALLER).protocol("2025-06-18")
                .method("resources/read").action("read").uri("file:///w/" + requestId).decision("ALLOW")
                .rules(List.of("r")).policyRevision("rev").build();
    }

    private static AuditEvent outcome(String requestId) {
        return outcomeEvent(requestId, "ok").bytes(5L).contentSha256("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
                .build();
    }

    private static AuditEvent.Builder outcomeEvent(String requestId, String outcome) {
        return AuditEvent.of(AuditEvent.Kind.OUTCOME, requestId).caller(CALLER).protocol("2025-06-18")
                .method("resources/read").action("read").uri("file:///w/" + requestId).policyRevision("rev")
                .outcome(outcome);
    }

    /** The log's records other than the writer's start and stop, in seq order: kind, request id and outcome. */
    private static List<String> requests(String chain) throws Exception {
        var out = new ArrayList<String>();
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var ps = c.prepareStatement("SELECT kind, request_id, outcome FROM audit_entry WHERE chain_id = ?"
                        + " AND kind NOT IN ('AUDIT_START', 'AUDIT_STOP') ORDER BY seq")) {
            ps.setString(1, chain);
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(1);
                    out.add(kind.startsWith("AUDIT_") ? kind + " null"
                            : kind + " " + rs.getString(2) + (rs.getString(3) == null ? "" : " " + rs.getString(3)));
                }
            }
        }
        return out;
    }

    private static String detailOf(String chain, String requestId, String outcome) throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var ps = c.prepareStatement("SELECT detail FROM audit_entry WHERE chain_id = ? AND request_id = ?"
                        + " AND outcome = ?")) {
            ps.setString(1, chain);
            ps.setString(2, requestId);
            ps.setString(3, outcome);
            try (var rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    // --- The breakable data source ----------------------------------------------------------------------------

    private DataSource breakable(DataSource real) {
        return proxy(DataSource.class, real, (target, method, args) -> {
            if (method.getName().equals("getConnection")) {
                if (refusing.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                    throw new SQLException("connection refused (the database cannot be reached)", "08001");
                }
                return connection((Connection) call(target, method, args));
            }
            return call(target, method, args);
        });
    }

    private Connection connection(Connection real) {
        var marked = new String[1]; // the marker id in the arrays bound to this connection's next statement
        var left = new boolean[1]; // its store was given up on while still running: the store's thread closes it
        return proxy(Connection.class, real, (target, method, args) -> {
            if (method.getName().equals("createArrayOf")) {
                for (Object e : (Object[]) args[1]) {
                    if (e instanceof String s && (s.startsWith("lost-reply-") || s.startsWith("lost-request-")
                            || s.startsWith("slow-reply-")) && broken.add(s)) {
                        marked[0] = s;
                    }
                }
            }
            if (method.getName().equals("close") && left[0]) {
                return null;
            }
            Object out = call(target, method, args);
            if (method.getName().equals("prepareStatement") && args[0].equals(SealedBatch.POSTGRES_INSERT)) {
                return statement((PreparedStatement) out, marked, left);
            }
            return out;
        });
    }

    private PreparedStatement statement(PreparedStatement real, String[] marked, boolean[] left) {
        return proxy(PreparedStatement.class, real, (target, method, args) -> {
            if (method.getName().equals("close") && left[0]) {
                return null;
            }
            if (!method.getName().equals("execute") || marked[0] == null) {
                return call(target, method, args);
            }
            String marker = marked[0];
            marked[0] = null;
            if (marker.startsWith("slow-reply-")) {
                left[0] = true;
                giveUpWhileWaiting(target, method, args);
            }
            if (marker.startsWith("lost-reply-")) {
                call(target, method, args); // stored and committed; then the reply is lost
            }
            refusing.set(refuseAfterBreak);
            throw new SQLException("An I/O error occurred while sending to the backend (" + marker + ")", "08006");
        });
    }

    /** Stores whose reply was given up on while they ran, each the thread still running it. */
    private final java.util.concurrent.BlockingQueue<Thread> abandoned = new java.util.concurrent.LinkedBlockingQueue<>();

    /**
     * Runs the store on a thread of its own and returns once its server process waits for a lock, as a driver gives
     * up on a reply past its socket timeout while the server goes on. The thread closes the connection when the
     * store ends, however it ends.
     */
    private void giveUpWhileWaiting(Object statement, java.lang.reflect.Method execute, Object[] args) throws Exception {
        var ps = (PreparedStatement) statement;
        Connection c = ps.getConnection();
        int pid = c.unwrap(org.postgresql.PGConnection.class).getBackendPID();
        var store = new Thread(() -> {
            try {
                call(statement, execute, args);
            } catch (Throwable ended) {
                // ended by the writer, as it should be
            } finally {
                try {
                    c.close();
                } catch (SQLException ignored) {
                    // the connection is gone already
                }
            }
        }, "abandoned-store");
        store.start();
        abandoned.add(store);
        try (var watch = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var q = watch.prepareStatement("SELECT wait_event_type FROM pg_stat_activity WHERE pid = ?")) {
            q.setInt(1, pid);
            Wait.until("the store waits for the lock", Duration.ofSeconds(5), () -> {
                try (var rs = q.executeQuery()) {
                    return rs.next() && "Lock".equals(rs.getString(1));
                }
            });
        }
    }
}
