package dev.quaestor.bench;

import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.sql.SQLException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What every benchmark against a production-mode server ({@link dev.quaestor.support.ServerProcess})
 * prepares: a fresh PostgreSQL database (on {@link TestPostgres}'s server), a policy directory (the shipped policies plus the
 * benchmark's own file), an Ed25519 checkpoint key, and the environment that points the server at
 * them and at the local token issuer ({@link TestIssuer}, started here).
 */
public final class ProdServerSetup {

    private ProdServerSetup() {
    }

    /** Starts the issuer, recreates {@code database} and returns the server's environment. */
    static Map<String, String> environment(String name, String database, String extraPolicyYaml)
            throws IOException, SQLException, GeneralSecurityException {
        return environment(name, database, extraPolicyYaml, true);
    }

    /**
     * As above; without the shipped policies if {@code shippedPolicies} is false (the load harness:
     * their default per-user limit would cap it).
     */
    public static Map<String, String> environment(String name, String database, String extraPolicyYaml,
            boolean shippedPolicies) throws IOException, SQLException, GeneralSecurityException {
        new TestIssuer().start();
        try (var c = TestPostgres.get().admin(); var s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            s.execute("CREATE DATABASE " + database);
        }
        Path policies = Files.createDirectories(Path.of("target", name + "-policies"));
        try (Stream<Path> files = Files.list(Path.of("policies"))) {
            for (Path stale : Files.list(policies).toList()) {
                Files.delete(stale);
            }
            for (Path f : files.filter(p -> shippedPolicies && p.toString().endsWith(".yaml")).toList()) {
                Files.copy(f, policies.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.writeString(policies.resolve("zz-" + name + ".yaml"), extraPolicyYaml);
        Path key = Path.of("target", name + "-audit-key.pem");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(
                KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n");
        return new HashMap<>(Map.of(
                "QUAESTOR_OIDC_ISSUER", TestIssuer.issuer(),
                "QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE,
                "QUAESTOR_DB_URL", TestPostgres.get().jdbcUrl(database),
                "QUAESTOR_DB_USER", "postgres",
                "QUAESTOR_DB_PASSWORD", "trust",
                "QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString(),
                "QUAESTOR_POLICIES_PATH", policies.toString()));
    }
}
