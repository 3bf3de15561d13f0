package dev.quaestor.retention;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Setting the retention lock, and raising it, is on the audit log as an AUDIT_RETENTION record ({@code locked}), as a
 * refused lock and every run are: the lock and its record are committed together before the job says it is locked, and
 * a lock whose record cannot be written is not set.
 */
@QuarkusTest
class RetentionLockRecordTest {

    @Inject
    RetentionRunRecorder recorder;

    private record Ran(int exit, String out) {
    }

    private static Ran lock(int age, String reason) {
        var text = new ByteArrayOutputStream();
        var print = new PrintStream(text, true, StandardCharsets.UTF_8);
        int exit = RetentionJob.run(new String[] {"lock", "--age", Integer.toString(age), "--reason", reason},
                Map.of("QUAESTOR_DB_URL", TestDatabase.url(), "QUAESTOR_DB_OWNER_USER", "postgres"), print);
        return new Ran(exit, text.toString(StandardCharsets.UTF_8));
    }

    private static Connection owner() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = owner(); var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Leaves no lock behind for other tests of this database (the trigger that keeps the rows is bypassed). */
    private static void unlock() throws SQLException {
        try (Connection c = owner()) {
            c.setAutoCommit(false);
            c.createStatement().execute("SET LOCAL session_replication_role = replica");
            c.createStatement().execute("DELETE FROM retention_lock");
            c.commit();
        }
    }

    @Test
    void aLockAndItsRaiseAreOnTheAuditLog() throws Exception {
        try {
            Ran first = lock(240, "preservation order 12");
            assertEquals(0, first.exit(), first.out());
            assertEquals(1, count("SELECT count(*) FROM retention_run WHERE outcome = 'locked' AND age_months = 240 AND summary LIKE"
                    + " 'lock at 240 month(s) (reason: preservation order 12): locked (lock %): no run may archive a month younger"
                    + " than 240 month(s); no lock was set before'"), "the lock is in retention_run once the job says it is set");
            Ran raised = lock(241, "a second order");
            assertEquals(0, raised.exit(), raised.out());
            assertEquals(1, count("SELECT count(*) FROM retention_run WHERE outcome = 'locked' AND age_months = 241 AND summary LIKE"
                    + " 'lock at 241 month(s) (reason: a second order): locked (lock %); the lock was 240 month(s)'"));

            recorder.recordPending();
            var locked = AuditRow.list("kind = 'AUDIT_RETENTION' AND outcome = 'locked' AND detail LIKE ? ORDER BY id",
                    "%: lock at 24_ month(s) (reason: %");
            assertEquals(2, locked.size(), locked.toString());
            assertTrue(locked.get(0).detail.contains("by postgres, finished ")
                    && locked.get(0).detail.contains("lock at 240 month(s) (reason: preservation order 12): locked"), locked.get(0).detail);
            assertTrue(locked.get(1).detail.contains("lock at 241 month(s) (reason: a second order): locked")
                    && locked.get(1).detail.contains("the lock was 240 month(s)"), locked.get(1).detail);
            assertTrue(locked.stream().allMatch(r -> r.method.equals("retention/run") && r.decision.equals("ALLOW")), locked.toString());
        } finally {
            unlock();
        }
    }

    @Test
    void aLockWhoseRecordCannotBeWrittenIsNotSet() throws Exception {
        try (Connection c = owner()) {
            c.createStatement().execute("CREATE FUNCTION fixture_no_run_record() RETURNS trigger AS $$ BEGIN"
                    + " RAISE EXCEPTION 'no run can be recorded'; END; $$ LANGUAGE plpgsql");
            c.createStatement().execute("CREATE TRIGGER fixture_no_run_record BEFORE INSERT ON retention_run"
                    + " FOR EACH ROW EXECUTE FUNCTION fixture_no_run_record()");
        }
        try {
            Ran r = lock(250, "unrecorded");
            assertEquals(1, r.exit(), r.out());
            assertTrue(r.out().contains("failed: ") && r.out().contains("no run can be recorded"), r.out());
            assertTrue(!r.out().contains("retention locked"), r.out());
            assertEquals(0, count("SELECT count(*) FROM retention_lock WHERE reason = 'unrecorded'"), "no lock without its record");
        } finally {
            try (Connection c = owner()) {
                c.createStatement().execute("DROP TRIGGER fixture_no_run_record ON retention_run");
                c.createStatement().execute("DROP FUNCTION fixture_no_run_record()");
            }
            unlock();
        }
    }
}
