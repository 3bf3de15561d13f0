package dev.quaestor.support;

import java.sql.SQLException;

/**
 * A fresh PostgreSQL database on the tests' server ({@link TestPostgres}) for one group of server processes
 * (replicas, a migration run, an end to end run), named after QUAESTOR_TEST_DB so that checkouts side by side keep
 * apart, with the restricted application role {@link TestDatabase#APP_ROLE} present as in production.
 */
public final class ScratchDatabase {

    private ScratchDatabase() {
    }

    /** Drops and creates {@code <QUAESTOR_TEST_DB>_<suffix>}; returns its JDBC URL. */
    public static String recreate(String suffix) throws SQLException {
        String name = TestDatabase.NAME + "_" + suffix;
        try (var c = TestPostgres.get().admin(); var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
            TestDatabase.createAppRole(c);
        }
        return TestPostgres.get().jdbcUrl(name);
    }
}
