package dev.quaestor.policy.history;

import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.support.TestDatabase;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The set in force at start-up decides requests from the start, so its files must end up stored even if the database
 * refuses them at first: they are tried again until they are.
 */
@QuarkusTest
class StartUpRevisionTest {

    @Inject
    RevisionArchive archive;

    @Test
    void theStartUpSetsFilesRefusedAtFirstAreStoredOnceTheDatabaseTakesThem() throws Exception {
        String id = "start-up-" + System.nanoTime();
        PolicySet set = PolicyLoader.parse(List.of(Map.entry("a.yaml", """
                apiVersion: quaestor/v1
                kind: Policy
                rules:
                  - {id: %s, effect: allow, actions: [read], resources: ["file:///docs/**"], subjects: {subjects: [carol]}}
                """.formatted(id))), new ArrayList<>());
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.createStatement().execute("""
                    CREATE OR REPLACE FUNCTION refuse_test_revision() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'the database refuses this revision for now'; END $$""");
            c.createStatement().execute("CREATE TRIGGER refuse_test_revision BEFORE INSERT ON policy_revision FOR EACH ROW"
                    + " WHEN (NEW.revision = '" + set.revision() + "') EXECUTE FUNCTION refuse_test_revision()");
            try {
                archive.keepAtStartUp(set, Instant.now());
                assertNull(stored(set), "refused for now");
            } finally {
                c.createStatement().execute("DROP TRIGGER refuse_test_revision ON policy_revision");
            }
        }
        archive.storeStartUpSet(); // as the scheduler does every 10 s
        StoredRevision r = stored(set);
        assertNotNull(r, "stored once the database takes it");
        assertEquals(set.sources().get(0).getValue(), r.files.get("a.yaml"));
    }

    private static StoredRevision stored(PolicySet set) {
        return QuarkusTransaction.requiringNew().call(() -> {
            StoredRevision r = StoredRevision.findById(set.revision());
            if (r != null) {
                r.files.size();
            }
            return r;
        });
    }
}
