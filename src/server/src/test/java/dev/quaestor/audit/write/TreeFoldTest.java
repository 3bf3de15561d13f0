package dev.quaestor.audit.write;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.TreeNodes;
import dev.quaestor.evidence.Hex;
import dev.quaestor.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A log whose tree nodes are not stored (as in one begun in format 1) has its subtrees folded from the records' leaf
 * hashes, read a page of 1,000 at a time: a subtree spanning several pages, and one starting mid-page, fold to the
 * hash the writer stored for it.
 */
@QuarkusTest
class TreeFoldTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Test
    void subtreesSpanningPagesFoldToTheStoredHashes() throws Exception {
        String chain = "fold-" + System.nanoTime();
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), chain, new SimpleMeterRegistry());
        w.start();
        for (int chunk = 0; chunk < 11; chunk++) {
            var pending = new ArrayList<PendingCommit>();
            for (int i = 0; i < 200; i++) {
                pending.add(w.submit(event("fold-" + chunk + "-" + i), null));
            }
            for (PendingCommit p : pending) {
                p.await();
            }
        }
        w.stop();

        var nodes = List.of(new int[] {11, 0}, new int[] {10, 1}, new int[] {9, 3}, new int[] {4, 70});
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            var stored = new ArrayList<String>();
            for (int[] n : nodes) {
                stored.add(Hex.of(new TreeNodes(c, chain).node(n[0], n[1])));
            }
            c.setAutoCommit(false); // the table's trigger refuses deletes; as a superuser, past it, for this test's log
            c.createStatement().execute("SET LOCAL session_replication_role = replica");
            int deleted = c.createStatement().executeUpdate("DELETE FROM audit_tree_node WHERE chain_id = '" + chain + "'");
            c.commit();
            c.setAutoCommit(true);
            assertEquals(true, deleted > 100, "the writer had stored the nodes: " + deleted);
            var folded = new ArrayList<String>();
            for (int[] n : nodes) {
                folded.add(Hex.of(new TreeNodes(c, chain).node(n[0], n[1])));
            }
            assertEquals(stored, folded);
        }
    }

    private static AuditEvent event(String requestId) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, requestId)
                .caller(new Caller("bob", null, null, List.of(), "10.0.0.2", "agent", "s", null, null, null))
                .protocol("2025-06-18").method("resources/read").action("read").uri("file:///w/" + requestId)
                .decision("ALLOW").rules(List.of("r")).policyRevision("rev").build();
    }
}
