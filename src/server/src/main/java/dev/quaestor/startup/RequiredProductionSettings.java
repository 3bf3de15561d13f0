package dev.quaestor.startup;

import io.quarkus.runtime.LaunchMode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * In production the settings a server cannot run without come only from the environment: the database's address and
 * credentials ({@code QUAESTOR_DB_*}), the OIDC issuer and audience ({@code QUAESTOR_OIDC_*}) and the audit signing
 * key's file ({@code QUAESTOR_AUDIT_SIGNING_KEY_FILE}); with the console on, its public URL and client secret. Checked
 * one by one where each is used, an operator learns of them one restart at a time, some only after Flyway has
 * migrated, and from messages that name Quarkus's or Flyway's keys rather than the variables they set. This check runs when the container starts, before the datasources and
 * Flyway are created, and names every missing variable in one message, logged as a line of its own (in plain text:
 * the JSON log is set up later) before the start fails with it.
 *
 * <p>A migration run ({@code QUARKUS_INIT_AND_EXIT=true}, the migration Job) migrates and exits: it is checked for
 * the database settings only, as it is given no signing key and never checks a token.
 */
@ApplicationScoped
public class RequiredProductionSettings {

    private static final Logger LOG = Logger.getLogger(RequiredProductionSettings.class);

    /** {@code quaestor.db.app-role} when none is given: the migrations then grant nothing. */
    private static final String NO_ROLE = "__none__";

    // Fired while the container is set up, which is before Flyway migrates (a StartupEvent would come too late).
    void check(@Observes @Initialized(ApplicationScoped.class) Object started) {
        if (LaunchMode.current() != LaunchMode.NORMAL) {
            return;
        }
        Config config = ConfigProvider.getConfig();
        String problem = problem(key -> read(config, key), RequiredProductionSettings::isFile);
        if (problem != null) {
            LOG.error(problem);
            throw new IllegalStateException(problem);
        }
    }

    /**
     * Why a production start cannot go on, naming every missing setting, or null; {@code setting} reads a
     * configuration key, {@code isFile} says whether a path names a readable file.
     */
    static String problem(Function<String, String> setting, Predicate<String> isFile) {
        List<String> names = new ArrayList<>();
        List<String> why = new ArrayList<>();
        if (blank(setting.apply("quarkus.datasource.jdbc.url"))) {
            names.add("QUAESTOR_DB_URL");
            why.add("QUAESTOR_DB_URL is not set: the JDBC URL of the PostgreSQL database that holds the audit log "
                    + "(e.g. jdbc:postgresql://db:5432/quaestor)");
        }
        if (blank(setting.apply("quarkus.datasource.username"))) {
            names.add("QUAESTOR_DB_USER");
            why.add("QUAESTOR_DB_USER is not set: the application role the server connects as");
        }
        if (blank(setting.apply("quarkus.datasource.password"))) {
            names.add("QUAESTOR_DB_PASSWORD");
            why.add("QUAESTOR_DB_PASSWORD is not set: the application role's password (with trust or certificate "
                    + "authentication any value will do)");
        }
        if (!"false".equalsIgnoreCase(setting.apply("quarkus.flyway.migrate-at-start"))) {
            if (blank(setting.apply("quarkus.flyway.username")) && !names.contains("QUAESTOR_DB_USER")) {
                names.add("QUAESTOR_DB_OWNER_USER");
                why.add("QUAESTOR_DB_OWNER_USER is not set (nor QUAESTOR_DB_USER): the role migrations run as");
            }
            if (blank(setting.apply("quarkus.flyway.password")) && !names.contains("QUAESTOR_DB_PASSWORD")) {
                names.add("QUAESTOR_DB_OWNER_PASSWORD");
                why.add("QUAESTOR_DB_OWNER_PASSWORD is not set (nor QUAESTOR_DB_PASSWORD): the password of the role "
                        + "migrations run as");
            }
            String owner = setting.apply("quarkus.flyway.username");
            String user = setting.apply("quarkus.datasource.username");
            String appRole = setting.apply("quaestor.db.app-role");
            if (!blank(owner) && !blank(user) && !owner.equals(user) && (blank(appRole) || NO_ROLE.equals(appRole))) {
                // Migrations would grant nothing, and the server could not write its audit log; once they have run,
                // setting the role later grants nothing either (the schema is up to date).
                names.add("QUAESTOR_DB_APP_ROLE");
                why.add("QUAESTOR_DB_APP_ROLE is not set, and migrations run as " + owner + " (QUAESTOR_DB_OWNER_USER) "
                        + "while the server connects as " + user + " (QUAESTOR_DB_USER): it names the role the "
                        + "migrations grant the application's rights to (" + user + ", or a role it is a member of)");
            }
        }
        if (!"true".equalsIgnoreCase(setting.apply("quarkus.init-and-exit"))) {
            if (blank(setting.apply("quarkus.oidc.auth-server-url"))) {
                names.add("QUAESTOR_OIDC_ISSUER");
                why.add("QUAESTOR_OIDC_ISSUER is not set: the OIDC issuer whose tokens this server accepts "
                        + "(e.g. https://idp.example.org/realms/quaestor; discovery and keys are fetched from it)");
            }
            if (blank(setting.apply("quarkus.oidc.token.audience"))) {
                names.add("QUAESTOR_OIDC_AUDIENCE");
                why.add("QUAESTOR_OIDC_AUDIENCE is not set: the audience every token must carry, this server's "
                        + "resource indicator (e.g. quaestor); without it a token issued for another service would be "
                        + "accepted");
            }
            String keyFile = setting.apply("quaestor.audit.signing-key-file");
            if (blank(setting.apply("quaestor.audit.signing-key")) && (blank(keyFile) || !isFile.test(keyFile))) {
                names.add("QUAESTOR_AUDIT_SIGNING_KEY_FILE");
                why.add("QUAESTOR_AUDIT_SIGNING_KEY_FILE names no readable file" + (blank(keyFile) ? "" : " (" + keyFile + ")")
                        + ": the Ed25519 private key (PKCS#8 PEM) that signs the audit checkpoints (or give the key "
                        + "itself in QUAESTOR_AUDIT_SIGNING_KEY)");
            }
            if ("true".equalsIgnoreCase(setting.apply("quarkus.oidc.console.tenant-enabled"))) {
                if (blank(setting.apply("quaestor.http.public-url"))) {
                    names.add("QUAESTOR_HTTP_PUBLIC_URL");
                    why.add("quaestor.http.public-url (QUAESTOR_HTTP_PUBLIC_URL) is required when the console is enabled "
                            + "(QUAESTOR_CONSOLE_ENABLED): the console's sign-in redirect URI is built from it "
                            + "(e.g. https://quaestor.example.org)");
                }
                if (blank(setting.apply("quarkus.oidc.console.credentials.secret"))) {
                    names.add("QUAESTOR_CONSOLE_CLIENT_SECRET");
                    why.add("QUAESTOR_CONSOLE_CLIENT_SECRET is not set, and the console is enabled "
                            + "(QUAESTOR_CONSOLE_ENABLED): the secret of the console's confidential client at the issuer");
                }
            }
        }
        if (names.isEmpty()) {
            return null;
        }
        return "Required settings missing, the server does not start: " + String.join(", ", names) + ". "
                + String.join("; ", why);
    }

    private static String read(Config config, String key) {
        try {
            return config.getOptionalValue(key, String.class).orElse(null);
        } catch (NoSuchElementException | IllegalArgumentException e) {
            return null; // an expression whose variable is not set
        }
    }

    private static boolean isFile(String path) {
        try {
            Path p = Path.of(path);
            return Files.isRegularFile(p) && Files.isReadable(p);
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
