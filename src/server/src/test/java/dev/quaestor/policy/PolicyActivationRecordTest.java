package dev.quaestor.policy;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestPolicies;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A policy change is recorded before it takes effect: while the audit log refuses its POLICY record, a new set does
 * not decide anything and a broken one is not reported refused; once the record can be written, the next reload
 * makes the change, with its record.
 */
@QuarkusTest
class PolicyActivationRecordTest {

    private static final Path FILE = TestPolicies.DIR.resolve("activation-record-test.yaml");
    private static final String GRANT = """
            apiVersion: quaestor/v1
            kind: Policy
            rules:
              - id: carol-may-read-activation-record
                effect: allow
                actions: [read]
                resources: ["test-data://activation-record"]
                subjects: {subjects: [carol]}
            """;

    @Inject
    PolicyStore store;

    @AfterEach
    void cleanUp() throws Exception {
        refusePolicyRecords(false);
        Files.deleteIfExists(FILE);
        store.reload();
        Wait.until("the test file's removal to take effect", Duration.ofSeconds(10), Duration.ofMillis(100),
                () -> store.refusal() == null && !store.current().sources().stream().anyMatch(f -> f.getKey().contains("activation-record")));
    }

    @Test
    void aSetWhoseActivationCannotBeRecordedDoesNotTakeEffectUntilItCan() throws Exception {
        String before = store.current().revision();
        long mark = lastId();
        refusePolicyRecords(true);
        Files.writeString(FILE, GRANT);
        // Whoever reloads (this test or the watcher), the set is not activated while its record cannot be written.
        assertNull(store.reload());
        Thread.sleep(1500); // the watcher's event and a poll, had they activated it, would have by now
        assertEquals(before, store.current().revision(), "a set whose activation is not on record decides nothing");
        assertEquals(0, AuditRow.count("kind = 'POLICY' AND id > ?", mark));

        refusePolicyRecords(false);
        store.reload();
        Wait.until("the set to be activated once its record can be written", Duration.ofSeconds(10), Duration.ofMillis(100),
                () -> !store.current().revision().equals(before));
        String after = store.current().revision();
        AuditRow activated = AuditRow.first("kind = 'POLICY' AND method = 'policy/activate' AND policy_revision = ? AND id > ?", after, mark);
        assertNotNull(activated, "the activation is on record");
        assertEquals(1, AuditRow.count("kind = 'POLICY' AND id > ?", mark), "one record: the activation");
    }

    @Test
    void aBrokenSetIsNotReportedRefusedUntilTheRefusalIsOnRecord() throws Exception {
        long mark = lastId();
        refusePolicyRecords(true);
        Files.writeString(FILE, GRANT.replace("effect: allow", "efect: allow"));
        assertNull(store.reload());
        assertNull(store.refusal(), "the refusal is not reported while it cannot be recorded");

        refusePolicyRecords(false);
        Wait.until("the refusal to be recorded and reported", Duration.ofSeconds(10), Duration.ofMillis(100), () -> {
            store.reload();
            return store.refusal() != null;
        });
        assertNotEquals(store.current().revision(), store.refusal().candidateRevision());
        assertEquals(1, AuditRow.count("kind = 'POLICY' AND method = 'policy/refuse' AND id > ?", mark));
    }

    @Test
    void theEndOfARefusalIsOnRecordWithTheRevisionItRefused() throws Exception {
        String active = store.current().revision();
        long mark = lastId();
        Files.writeString(FILE, GRANT.replace("effect: allow", "efect: allow"));
        Wait.until("the refusal", Duration.ofSeconds(10), Duration.ofMillis(100), () -> {
            store.reload();
            return store.refusal() != null;
        });
        String refused = store.refusal().candidateRevision();

        Files.delete(FILE);
        Wait.until("the end of the refusal", Duration.ofSeconds(10), Duration.ofMillis(100), () -> {
            store.reload();
            return store.refusal() == null;
        });
        assertEquals(active, store.current().revision(), "the set in force never changed");
        AuditRow resumed = AuditRow.first("kind = 'POLICY' AND method = 'policy/resume' AND id > ?", mark);
        assertNotNull(resumed, "the end of the degraded state is on record");
        assertEquals("resumed", resumed.outcome);
        assertEquals(active, resumed.policyRevision);
        assertTrue(resumed.detail.contains("the refusal of revision " + refused + " is over"), resumed.detail);
        assertEquals(1, AuditRow.count("kind = 'POLICY' AND method = 'policy/resume' AND id > ?", mark), "recorded once");
        assertEquals(0, AuditRow.count("kind = 'POLICY' AND method = 'policy/activate' AND id > ?", mark),
                "no revision was activated");
    }

    private static long lastId() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement();
                var rs = s.executeQuery("SELECT COALESCE(MAX(id), 0) FROM audit_entry")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A trigger that makes the database refuse POLICY records (and so the batch that holds one). */
    private static void refusePolicyRecords(boolean refuse) throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS test_refuse_policy ON audit_entry");
            if (refuse) {
                s.execute("CREATE OR REPLACE FUNCTION test_refuse_policy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                        + "IF NEW.kind = 'POLICY' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
                s.execute("CREATE TRIGGER test_refuse_policy BEFORE INSERT ON audit_entry FOR EACH ROW EXECUTE FUNCTION test_refuse_policy()");
            }
        }
    }
}
