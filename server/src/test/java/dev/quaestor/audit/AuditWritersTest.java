package dev.quaestor.audit;

import dev.quaestor.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.reflect.Proxy;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica with two audit writers ({@code quaestor.audit.writers=2}), on PostgreSQL: while one
 * writer's statement is held inside the database, requests are committed through the other; each
 * request's decision and outcome stay on one chain, in order; both chains verify, and the held
 * record is committed once the database lets it go.
 */
@QuarkusTest
class AuditWritersTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditReader reader;

    /** The application's audit config with this test's chain id and writer count. */
    private AuditConfig with(String chain, int writers) {
        return (AuditConfig) Proxy.newProxyInstance(AuditConfig.class.getClassLoader(), new Class<?>[] {AuditConfig.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "chainId" -> Optional.of(chain);
                    case "writers" -> writers;
                    default -> method.invoke(config, args);
                });
    }

    private static AuditEvent event(String requestId, AuditEvent.Kind kind) {
        return new AuditEvent(Instant.now(), requestId, kind, new Caller("carol", null, null, List.of(), "10.0.0.3", "ua", "s"),
                "resources/read", "read", "file:///w/" + requestId, kind == AuditEvent.Kind.DECISION ? "ALLOW" : null, List.of("r"),
                "rev", kind == AuditEvent.Kind.OUTCOME ? "ok" : null, null, null, null, null, null, null);
    }

    /** request id -> {chain, seq} of every record of these chains. */
    private static Map<String, Object[]> stored(String base) throws Exception {
        var out = new HashMap<String, Object[]>();
        try (var c = DriverManager.getConnection(TestDatabase.URL, "postgres", "");
                var ps = c.prepareStatement("SELECT request_id, kind, chain_id, seq FROM audit_entry WHERE chain_id IN (?, ?)")) {
            ps.setString(1, base);
            ps.setString(2, base + "#1");
            try (var rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1) + "/" + rs.getString(2), new Object[] {rs.getString(3), rs.getLong(4)});
                }
            }
        }
        return out;
    }

    @Test
    void aHeldWriterDoesNotHoldTheRequestsThatComeAfter() throws Exception {
        String chain = "writers-" + System.nanoTime();
        var log = new AuditLog(ds, with(chain, 2), new SimpleMeterRegistry());
        assertEquals(List.of(chain, chain + "#1"), log.chains());
        log.append(event("first", AuditEvent.Kind.POLICY)); // both idle: writer 0 takes it, and now knows its head (seq 1)

        PendingCommit held;
        try (var c = DriverManager.getConnection(TestDatabase.URL, "postgres", "")) {
            // An uncommitted row with writer 0's next (chain, seq): its next insert waits on the unique index.
            c.setAutoCommit(false);
            try (var ps = c.prepareStatement("INSERT INTO audit_entry (event_time, request_id, kind, chain_id, seq) VALUES (now(), 'blocker', 'POLICY', ?, 2)")) {
                ps.setString(1, chain);
                ps.executeUpdate();
            }
            held = log.submit(event("held", AuditEvent.Kind.DECISION));
            for (int i = 0; i < 40; i++) {
                PendingCommit decision = log.submit(event("r-" + i, AuditEvent.Kind.DECISION));
                log.submitAfter(decision, event("r-" + i, AuditEvent.Kind.OUTCOME)).await();
                assertTrue(decision.done.isDone() && !decision.failed());
            }
            assertFalse(held.done.isDone(), "writer 0 is still held in the database");
            c.rollback();
        }
        held.await();
        log.shutdown(null);

        var rows = stored(chain);
        assertEquals(chain, rows.get("held/DECISION")[0]);
        assertEquals(2L, rows.get("held/DECISION")[1], "the held record took the seq the blocker had claimed");
        for (int i = 0; i < 40; i++) {
            Object[] d = rows.get("r-" + i + "/DECISION");
            Object[] o = rows.get("r-" + i + "/OUTCOME");
            assertEquals(chain + "#1", d[0], "committed through the writer that was not held");
            assertEquals(d[0], o[0], "a request's records share a chain");
            assertTrue((Long) o[1] > (Long) d[1], "the outcome follows its decision");
        }
        assertEquals(82, rows.size(), "first, held, and 40 decisions with their outcomes");
        assertThrows(AuditUnavailableException.class, () -> log.submit(event("late", AuditEvent.Kind.DECISION)));

        ChainVerifier.Report r = reader.verify();
        for (String ch : log.chains()) {
            assertTrue(r.problems().stream().noneMatch(p -> p.chain().equals(ch)), r.problems().toString());
            var report = r.chains().stream().filter(x -> x.chain().equals(ch)).findFirst().orElseThrow();
            assertEquals(ch.equals(chain) ? 2 : 80, report.records());
            assertEquals(0, report.unsignedTail(), "shutdown signs each chain's head");
        }
    }

    @Test
    void aWriterCountOutOfRangeIsRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> new AuditLog(ds, with("writers-bad", 0), new SimpleMeterRegistry()));
        assertTrue(e.getMessage().contains("quaestor.audit.writers"), e.getMessage());
    }
}
