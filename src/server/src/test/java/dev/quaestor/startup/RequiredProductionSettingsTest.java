package dev.quaestor.startup;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RequiredProductionSettingsTest {

    private static final String KEY_FILE = "/var/run/secrets/quaestor/audit-signing-key";
    /** The files that exist, as far as the check is told. */
    private static final Set<String> FILES = Set.of(KEY_FILE);

    private static Map<String, String> complete() {
        var s = new HashMap<String, String>();
        s.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://db:5432/quaestor");
        s.put("quarkus.datasource.username", "quaestor_app");
        s.put("quarkus.datasource.password", "secret");
        s.put("quarkus.flyway.username", "quaestor_owner");
        s.put("quarkus.flyway.password", "owner-secret");
        s.put("quaestor.db.app-role", "quaestor_app");
        s.put("quarkus.oidc.auth-server-url", "https://idp.example.org/realms/quaestor");
        s.put("quarkus.oidc.token.audience", "quaestor");
        s.put("quaestor.audit.signing-key-file", KEY_FILE);
        return s;
    }

    private static String problem(Map<String, String> s) {
        return RequiredProductionSettings.problem(s::get, FILES::contains);
    }

    private static String problemWithout(String key) {
        var s = complete();
        s.remove(key);
        return problem(s);
    }

    @Test
    void eachMissingSettingIsNamedByItsVariable() {
        assertTrue(problemWithout("quarkus.datasource.jdbc.url").contains("QUAESTOR_DB_URL is not set"));
        assertTrue(problemWithout("quarkus.datasource.username").contains("QUAESTOR_DB_USER is not set"));
        assertTrue(problemWithout("quarkus.datasource.password").contains("QUAESTOR_DB_PASSWORD is not set"));
        assertTrue(problemWithout("quarkus.flyway.username").contains("QUAESTOR_DB_OWNER_USER is not set"));
        assertTrue(problemWithout("quarkus.flyway.password").contains("QUAESTOR_DB_OWNER_PASSWORD is not set"));
        assertTrue(problemWithout("quarkus.oidc.auth-server-url").contains("QUAESTOR_OIDC_ISSUER is not set"));
        assertTrue(problemWithout("quarkus.oidc.token.audience").contains("QUAESTOR_OIDC_AUDIENCE is not set"));
        assertTrue(problemWithout("quaestor.audit.signing-key-file").contains("QUAESTOR_AUDIT_SIGNING_KEY_FILE names no"));
    }

    /** Migrations run as another role would grant the application's role nothing, and it could not write. */
    @Test
    void migratingAsAnotherRoleNeedsTheApplicationRoleNamed() {
        var s = complete();
        s.put("quaestor.db.app-role", "__none__");
        String problem = problem(s);
        assertTrue(problem != null && problem.contains(": QUAESTOR_DB_APP_ROLE. ")
                && problem.contains("migrations run as quaestor_owner (QUAESTOR_DB_OWNER_USER) while the server connects as "
                        + "quaestor_app (QUAESTOR_DB_USER)"), problem);
        s.remove("quaestor.db.app-role");
        assertTrue(problem(s).contains("QUAESTOR_DB_APP_ROLE is not set"));
        s.put("quarkus.flyway.username", "quaestor_app"); // one role for both: nothing to grant
        assertNull(problem(s));
        s.put("quarkus.flyway.username", "quaestor_owner");
        s.put("quarkus.flyway.migrate-at-start", "false"); // a pod that does not migrate grants nothing
        assertNull(problem(s));
    }

    @Test
    void everyMissingSettingIsNamedAtOnceFirstInTheMessage() {
        var s = new HashMap<String, String>();
        s.put("quaestor.audit.signing-key-file", "/nonexistent/audit-signing-key");
        String problem = problem(s);
        assertTrue(problem.startsWith("Required settings missing, the server does not start: QUAESTOR_DB_URL, "
                + "QUAESTOR_DB_USER, QUAESTOR_DB_PASSWORD, QUAESTOR_OIDC_ISSUER, QUAESTOR_OIDC_AUDIENCE, "
                + "QUAESTOR_AUDIT_SIGNING_KEY_FILE. "), problem);
        assertTrue(problem.contains("(/nonexistent/audit-signing-key)"), "says which file it looked for: " + problem);
        assertFalse(problem.contains("QUAESTOR_DB_OWNER_USER"), "the owner falls back to QUAESTOR_DB_USER, named once");
    }

    @Test
    void withTheDatabaseSetTheIssuerAudienceAndKeyAreNamedTogether() {
        var s = complete();
        s.remove("quarkus.oidc.auth-server-url");
        s.remove("quarkus.oidc.token.audience");
        s.put("quaestor.audit.signing-key-file", "/nonexistent/audit-signing-key");
        String problem = problem(s);
        assertTrue(problem.contains(": QUAESTOR_OIDC_ISSUER, QUAESTOR_OIDC_AUDIENCE, QUAESTOR_AUDIT_SIGNING_KEY_FILE. "), problem);
        assertFalse(problem.contains("QUAESTOR_DB_"), problem);
    }

    @Test
    void aBlankPasswordIsMissing() {
        var s = complete();
        s.put("quarkus.datasource.password", "");
        assertTrue(problem(s).contains("QUAESTOR_DB_PASSWORD is not set"));
    }

    @Test
    void anInlineSigningKeyNeedsNoFile() {
        var s = complete();
        s.remove("quaestor.audit.signing-key-file");
        s.put("quaestor.audit.signing-key", "MC4CAQAwBQYDK2VwBCIEI...");
        assertNull(problem(s));
    }

    @Test
    void aPodThatDoesNotMigrateNeedsNoOwnerCredentials() {
        var s = complete();
        s.remove("quarkus.flyway.username");
        s.remove("quarkus.flyway.password");
        s.put("quarkus.flyway.migrate-at-start", "false");
        assertNull(problem(s));
    }

    @Test
    void aMigrationRunNeedsOnlyTheDatabase() {
        var s = complete();
        s.remove("quarkus.oidc.auth-server-url");
        s.remove("quarkus.oidc.token.audience");
        s.put("quaestor.audit.signing-key-file", "/nonexistent/audit-signing-key");
        s.put("quarkus.init-and-exit", "true");
        assertNull(problem(s));
        s.remove("quarkus.datasource.password");
        assertTrue(problem(s).contains(": QUAESTOR_DB_PASSWORD. "), problem(s));
    }

    @Test
    void theConsoleOnNeedsItsPublicUrlAndClientSecret() {
        var s = complete();
        s.put("quarkus.oidc.console.tenant-enabled", "true");
        assertTrue(problem(s).contains(": QUAESTOR_HTTP_PUBLIC_URL, QUAESTOR_CONSOLE_CLIENT_SECRET. "), problem(s));
        s.put("quaestor.http.public-url", "https://quaestor.example.org");
        s.put("quarkus.oidc.console.credentials.secret", "a-secret-of-thirty-two-characters-or-more");
        assertNull(problem(s));
        s.put("quarkus.oidc.console.tenant-enabled", "false");
        s.remove("quaestor.http.public-url");
        s.remove("quarkus.oidc.console.credentials.secret");
        assertNull(problem(s));
    }

    @Test
    void completeSettingsStart() {
        assertNull(problem(complete()));
    }
}
