package dev.quaestor.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * Makes sure the test database and the application role exist on the tests' PostgreSQL ({@link TestPostgres}: the
 * local server, or a private cluster when none answers), and points the application and Flyway at it, overriding
 * the %test URLs of application.properties. Flyway cleans and migrates it.
 */
public class TestDatabase implements QuarkusTestResourceLifecycleManager {

    /** QUAESTOR_TEST_DB lets two checkouts run their tests side by side without sharing a database. */
    public static final String NAME = System.getenv().getOrDefault("QUAESTOR_TEST_DB", "quaestor_test");
    public static final String APP_ROLE = "quaestor_app";

    /** The JDBC URL of the test database. */
    public static String url() {
        return TestPostgres.get().jdbcUrl(NAME);
    }

    @Override
    public Map<String, String> start() {
        TestPostgres pg = TestPostgres.get();
        try (var c = pg.admin(); var check = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            check.setString(1, NAME);
            if (!check.executeQuery().next()) {
                try (var s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + NAME);
                }
            }
            createAppRole(c);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare the test database on " + pg.host() + ":" + pg.port() + ": "
                    + e.getMessage(), e);
        }
        String url = url();
        return Map.of("quarkus.datasource.jdbc.url", url, "quarkus.flyway.jdbc-url", url);
    }

    /** The restricted role the application connects as (trust auth locally; a password in production). */
    static void createAppRole(Connection admin) throws SQLException {
        try (var s = admin.createStatement()) {
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + APP_ROLE + "') THEN "
                    + "CREATE ROLE " + APP_ROLE + " LOGIN; END IF; END $$");
        }
    }

    @Override
    public void stop() {
        // The server outlives each application start: TestPostgres stops a private cluster at JVM exit.
    }
}
