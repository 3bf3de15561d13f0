package dev.quaestor.jdbc;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequiredDatabaseSettingsTest {

    private static Map<String, String> complete() {
        var s = new HashMap<String, String>();
        s.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db:5432/quaestor");
        s.put("quarkus.datasource.username", "quaestor_app");
        s.put("quarkus.datasource.password", "secret");
        s.put("quarkus.flyway.username", "quaestor_owner");
        s.put("quarkus.flyway.password", "owner-secret");
        return s;
    }

    private static String problemWithout(String key) {
        var s = complete();
        s.remove(key);
        return RequiredDatabaseSettings.problem(s::get);
    }

    @Test
    void eachMissingSettingIsNamedByItsVariable() {
        assertTrue(problemWithout("quarkus.datasource.jdbc.url").startsWith("QUAESTOR_DB_URL is not set"));
        assertTrue(problemWithout("quarkus.datasource.username").startsWith("QUAESTOR_DB_USER is not set"));
        assertTrue(problemWithout("quarkus.datasource.password").startsWith("QUAESTOR_DB_PASSWORD is not set"));
        assertTrue(problemWithout("quarkus.flyway.username").startsWith("QUAESTOR_DB_OWNER_USER is not set"));
        assertTrue(problemWithout("quarkus.flyway.password").startsWith("QUAESTOR_DB_OWNER_PASSWORD is not set"));
    }

    @Test
    void aBlankPasswordIsMissing() {
        var s = complete();
        s.put("quarkus.datasource.password", "");
        assertTrue(RequiredDatabaseSettings.problem(s::get).startsWith("QUAESTOR_DB_PASSWORD is not set"));
    }

    @Test
    void aPodThatDoesNotMigrateNeedsNoOwnerCredentials() {
        var s = complete();
        s.remove("quarkus.flyway.username");
        s.remove("quarkus.flyway.password");
        s.put("quarkus.flyway.migrate-at-start", "false");
        assertNull(RequiredDatabaseSettings.problem(s::get));
    }

    @Test
    void completeSettingsStart() {
        assertNull(RequiredDatabaseSettings.problem(complete()::get));
    }
}
