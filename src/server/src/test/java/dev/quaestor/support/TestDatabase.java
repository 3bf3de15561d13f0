package dev.quaestor.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * Makes sure the test database exists on the local PostgreSQL (127.0.0.1:5432, user postgres),
 * so that `./mvnw verify` needs nothing but a running server. Flyway cleans and migrates it.
 */
public class TestDatabase implements QuarkusTestResourceLifecycleManager {

    /** QUAESTOR_TEST_DB lets two checkouts run their tests side by side without sharing a database. */
    public static final String NAME = System.getenv().getOrDefault("QUAESTOR_TEST_DB", "quaestor_test");
    public static final String URL = "jdbc:postgresql://127.0.0.1:5432/" + NAME;
    public static final String APP_ROLE = "quaestor_app";

    @Override
    public Map<String, String> start() {
        String url = System.getProperty("quaestor.test.pg-admin-url", "jdbc:postgresql://127.0.0.1:5432/postgres");
        try (var c = DriverManager.getConnection(url, "postgres", "");
                var check = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
            check.setString(1, NAME);
            if (!check.executeQuery().next()) {
                try (var s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + NAME);
                }
            }
            // The restricted role the application connects as (trust auth locally; a password in production).
            try (var s = c.createStatement()) {
                s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + APP_ROLE + "') THEN "
                        + "CREATE ROLE " + APP_ROLE + " LOGIN; END IF; END $$");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL must be running on 127.0.0.1:5432 for the tests (see README): " + e.getMessage(), e);
        }
        return Map.of("quarkus.datasource.jdbc.url", URL, "quarkus.flyway.jdbc-url", URL);
    }

    @Override
    public void stop() {
    }
}
