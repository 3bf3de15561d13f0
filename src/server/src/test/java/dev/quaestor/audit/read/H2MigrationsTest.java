package dev.quaestor.audit.read;

import java.sql.DriverManager;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The migrations the dev profile runs on H2 (common and h2) apply to an empty database, and leave the index a search by
 * URI prefix and time reads.
 */
class H2MigrationsTest {

    @Test
    void theDevMigrationsApplyOnH2() throws Exception {
        String url = "jdbc:h2:mem:migrations;DB_CLOSE_DELAY=-1";
        var h2 = Flyway.configure().dataSource(url, "sa", "").locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .placeholders(Map.of("appRole", "__none__")).load();
        var result = h2.migrate();
        assertTrue(result.success);
        System.out.println("H2: " + result.migrationsExecuted + " migrations, now at version " + result.targetSchemaVersion);
        try (var c = DriverManager.getConnection(url, "sa", ""); var rs = c.createStatement().executeQuery(
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.INDEXES WHERE TABLE_NAME = 'AUDIT_ENTRY' AND INDEX_NAME = 'AUDIT_ENTRY_URI_TIME'")) {
            rs.next();
            assertEquals(1, rs.getLong(1), "the URI and time index");
        }
    }
}
