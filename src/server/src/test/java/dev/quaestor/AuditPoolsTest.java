package dev.quaestor;

import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The audit writer's connections are its own: with every connection of the default pool (sessions, subscriptions,
 * the console) and of the audit-read pool (search, exports, verify) held, a read is still served, and its records
 * are committed.
 */
@QuarkusTest
class AuditPoolsTest {

    private static final String URI = "file:///docs/handbook/welcome.md";

    @Inject
    AgroalDataSource defaultPool;

    @Inject
    @DataSource(AuditPools.READ)
    AgroalDataSource readPool;

    @Test
    void aReadIsServedAndRecordedWithEveryOtherConnectionHeld() throws Exception {
        String bob = TestIssuer.tokenFor("bob");
        Modern.read(bob, 1, URI).statusCode(200);
        var held = new ArrayList<Connection>();
        String requestId;
        try {
            holdAll(defaultPool, held);
            holdAll(readPool, held);
            // They are all held: neither pool has one more to give.
            assertThrows(SQLException.class, () -> readPool.getConnection().close());
            assertThrows(SQLException.class, () -> defaultPool.getConnection().close());
            requestId = Modern.read(bob, 2, URI).statusCode(200).body("result.contents[0].text", containsString("Welcome"))
                    .extract().header("X-Request-Id");
        } finally {
            for (Connection c : held) {
                c.close();
            }
        }
        List<AuditRow> rows = AuditRow.list("request_id = ? ORDER BY id", requestId);
        assertEquals(2, rows.size(), rows.toString());
        assertEquals("DECISION", rows.get(0).kind);
        assertEquals("OUTCOME", rows.get(1).kind);
        assertEquals("ok", rows.get(1).outcome);
    }

    private static void holdAll(AgroalDataSource pool, List<Connection> held) throws SQLException {
        int size = pool.getConfiguration().connectionPoolConfiguration().maxSize();
        for (int i = 0; i < size; i++) {
            held.add(pool.getConnection());
        }
    }
}
