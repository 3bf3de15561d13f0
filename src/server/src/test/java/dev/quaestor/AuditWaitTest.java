package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A read is answered only once its audit records are durable, alone or inside a batch. With the
 * audit table locked, nothing commits: both forms are refused with -32005 after the commit timeout
 * and disclose nothing; once the lock is gone, reads are served again, each with its DECISION
 * before its OUTCOME in the chain.
 */
@QuarkusTest
class AuditWaitTest {

    private static final String URI = "file:///docs/handbook/welcome.md";
    private static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + URI + "\"}}";

    private final String bob = TestIssuer.tokenFor("bob");

    @Inject
    AgroalDataSource ds;

    /** Commits wait less behind the kernel's writeback when the server's backends flush what they evict early. */
    @Test
    void theServersConnectionsWriteBackEvictedPagesEarly() throws Exception {
        try (var c = ds.getConnection(); var rs = c.createStatement().executeQuery("SHOW backend_flush_after")) {
            assertTrue(rs.next());
            assertEquals("256kB", rs.getString(1));
        }
    }

    /** Holds a lock on the audit table, so that nothing commits, while {@code body} runs (each well under the writer's statement timeout). */
    private static void withAuditTableLocked(ThrowingRunnable body) throws Exception {
        try (Connection lock = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            lock.setAutoCommit(false);
            lock.createStatement().execute("LOCK TABLE audit_entry IN SHARE ROW EXCLUSIVE MODE");
            try {
                body.run();
            } finally {
                lock.rollback();
            }
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void readsWhoseRecordsCannotCommitAreRefusedAndDiscloseNothing() throws Exception {
        // 2025-03-26: the one revision with JSON-RPC batches, which this test also sends.
        String session = Rpc.initialize(bob, "2025-03-26");
        String[] refusedId = new String[1];
        withAuditTableLocked(() -> {
            long t0 = System.nanoTime();
            var refused = Rpc.call(bob, session, READ.formatted(2)).statusCode(503).header("Retry-After", "5").extract();
            String single = refused.asString();
            refusedId[0] = refused.header("X-Request-Id");
            long waitedMs = (System.nanoTime() - t0) / 1_000_000;
            JsonPath one = JsonPath.from(single);
            assertEquals(-32005, one.getInt("error.code"), single);
            assertEquals(2, one.getInt("id"));
            assertFalse(single.contains("contents"), "nothing is disclosed: " + single);
            assertTrue(waitedMs >= 4_500, "refused at the commit timeout (5 s), not before: " + waitedMs + " ms");
        });

        // The refused read's records, stored once the lock is gone, say how it ended: its DECISION, then an OUTCOME
        // aborted with the code it was answered with. Its OUTCOME ok, given up at the commit timeout, is left out unless
        // the writer had already taken it into the batch the lock held; then the aborted one follows it.
        await().atMost(Duration.ofSeconds(30)).until(() -> AuditRow.list("request_id = ? AND kind = 'OUTCOME' AND outcome = 'aborted'",
                refusedId[0]).size() > 0);
        var records = AuditRow.list("request_id = ? ORDER BY seq", refusedId[0]);
        assertEquals("DECISION", records.get(0).kind, "its DECISION first: " + records);
        assertTrue(records.size() <= 3, "at most its DECISION, the OUTCOME ok given up, and the aborted one: " + records);
        AuditRow last = records.get(records.size() - 1);
        assertEquals("OUTCOME", last.kind);
        assertEquals("aborted", last.outcome);
        assertEquals(-32005, last.errorCode, "the code the read was answered with");
        assertTrue(last.detail.contains("did not confirm") && last.detail.contains("refused"), last.detail);

        withAuditTableLocked(() -> {
            String batch = Rpc.call(bob, session, "[" + READ.formatted(3) + "," + READ.formatted(4) + "]").statusCode(200)
                    .extract().asString();
            JsonPath both = JsonPath.from(batch);
            assertEquals(List.of(-32005, -32005), both.getList("error.code"), batch);
            assertFalse(batch.contains("contents"), "nothing is disclosed: " + batch);
        });

        String served = Rpc.call(bob, session, READ.formatted(5)).statusCode(200).extract().asString();
        JsonPath ok = JsonPath.from(served);
        assertEquals(URI, ok.getString("result.contents[0].uri"), served);
        var second = Rpc.call(bob, session, READ.formatted(6)).statusCode(200).extract();
        String text = JsonPath.from(second.asString()).getString("result.contents[0].text");
        var rows = AuditRow.list("request_id = ? ORDER BY seq", second.header("X-Request-Id"));
        assertEquals(List.of("DECISION", "OUTCOME"), rows.stream().map(r -> r.kind).toList(), "the DECISION comes first");
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8))),
                rows.get(1).contentSha256, "the OUTCOME names the bytes served");
        assertEquals("ok", rows.get(1).outcome);
    }
}
