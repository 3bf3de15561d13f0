package dev.quaestor.jdbc;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.util.function.Function;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * In production the database's address and credentials come only from the environment ({@code QUAESTOR_DB_*}). When
 * one is missing, Quarkus and Flyway fail with messages that name their own keys ("Username and password must be
 * defined when a JDBC URL is provided in the Flyway configuration"), which an operator never set. This check runs
 * when the container starts, before the datasources and Flyway are created, and names the variable instead.
 */
@ApplicationScoped
public class RequiredDatabaseSettings {

    // Fired while the container is set up, which is before Flyway migrates (a StartupEvent would come too late).
    void check(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        Config config = ConfigProvider.getConfig();
        String problem = problem(key -> config.getOptionalValue(key, String.class).orElse(null));
        if (problem != null) {
            throw new IllegalStateException(problem);
        }
    }

    /** Why a production start cannot reach the database, or null; {@code setting} reads a configuration key. */
    static String problem(Function<String, String> setting) {
        if (blank(setting.apply("quarkus.datasource.jdbc.url"))) {
            return "QUAESTOR_DB_URL is not set: the JDBC URL of the PostgreSQL database that holds the audit log "
                    + "(e.g. jdbc:postgresql://db:5432/quaestor)";
        }
        if (blank(setting.apply("quarkus.datasource.username"))) {
            return "QUAESTOR_DB_USER is not set: the application role the server connects as";
        }
        if (blank(setting.apply("quarkus.datasource.password"))) {
            return "QUAESTOR_DB_PASSWORD is not set: the application role's password (with trust or certificate "
                    + "authentication any value will do)";
        }
        if (!"false".equalsIgnoreCase(setting.apply("quarkus.flyway.migrate-at-start"))) {
            if (blank(setting.apply("quarkus.flyway.username"))) {
                return "QUAESTOR_DB_OWNER_USER is not set (nor QUAESTOR_DB_USER): the role migrations run as";
            }
            if (blank(setting.apply("quarkus.flyway.password"))) {
                return "QUAESTOR_DB_OWNER_PASSWORD is not set (nor QUAESTOR_DB_PASSWORD): the password of the role "
                        + "migrations run as";
            }
        }
        return null;
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
