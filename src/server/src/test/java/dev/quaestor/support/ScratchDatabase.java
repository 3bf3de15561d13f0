package dev.quaestor.support;

import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * A fresh PostgreSQL database on 127.0.0.1 for one group of server processes (replicas, a migration run, an end
 * to end run), named after QUAESTOR_TEST_DB so that checkouts side by side keep apart, with the restricted
 * application role {@link TestDatabase#APP_ROLE} present as in production.
 */
public final class ScratchDatabase {

    private ScratchDatabase() {
    }

    /** Drops and creates {@code <QUAESTOR_TEST_DB>_<suffix>}; returns its JDBC URL. */
    public static String recreate(String suffix) throws SQLException {
        String name = TestDatabase.NAME + "_" + suffix;
        try (var c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:5432/postgres", "postgres", "");
                var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + name);
            s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '" + TestDatabase.APP_ROLE + "') THEN "
                    + "CREATE ROLE " + TestDatabase.APP_ROLE + " LOGIN; END IF; END $$");
        }
        return "jdbc:postgresql://127.0.0.1:5432/" + name;
    }
}
