package dev.quaestor;

import dev.quaestor.support.ExtraPolicies;
import dev.quaestor.support.McpClients;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The example provider and the packaged application (README, "Building your own provider jar"), in
 * production mode and configured through the environment only. Built with the {@code with-provider}
 * profile naming the example, its jar is in quarkus-app/lib/main and a mount of type
 * {@code greeting} serves through /mcp; built without it (a plain {@code verify}), the same mount
 * stops start-up with the documented message. Each build runs the one test that applies to it.
 */
class ProviderPackagingIT {

    private static final Path LIB = Repo.SERVER.resolve(Path.of("target", "quarkus-app", "lib", "main"));
    private static final Map<String, String> env = new HashMap<>();

    @BeforeAll
    static void configure() throws Exception {
        new TestIssuer().start();
        env.put("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer());
        env.put("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE);
        env.put("QUAESTOR_DB_URL", ScratchDatabase.recreate("provider_jar"));
        env.put("QUAESTOR_DB_USER", "postgres");
        env.put("QUAESTOR_DB_PASSWORD", "trust");
        env.put("QUAESTOR_DB_APP_ROLE", "quaestor_app");
        env.put("QUAESTOR_AUDIT_SIGNING_KEY_FILE", SigningKeyFile.write(Path.of("target", "provider-jar-audit-key.pem")).toString());
        env.put("QUAESTOR_POLICIES_PATH", Path.of(ExtraPolicies.directory("provider-jar-policies", "greetings.yaml", """
                apiVersion: quaestor/v1
                kind: Policy
                metadata: {name: greetings}
                rules:
                  - {id: greetings-for-all, effect: allow, actions: [list, read], resources: ["hello://greetings/*"], subjects: {subjects: ["*"]}}
                  - {id: no-secret-greeting, effect: deny, actions: ["*"], resources: ["hello://greetings/secret"], subjects: {subjects: ["*"]}}
                """)).toAbsolutePath().toString());
        // The mount exactly as the README writes it, in environment variables.
        env.put("QUAESTOR_MOUNTS_HELLO_PROVIDER", "greeting");
        env.put("QUAESTOR_MOUNTS_HELLO_URI", "hello://greetings/");
        env.put("QUAESTOR_MOUNTS_HELLO_OPTIONS_NAMES", "ada,grace,secret");
    }

    private static boolean packagedWithExample() throws Exception {
        try (Stream<Path> jars = Files.list(LIB)) {
            return jars.anyMatch(p -> p.getFileName().toString().contains("quaestor-example-greeting-provider"));
        }
    }

    @Test
    void aProviderBuiltInServesInProductionMode() throws Exception {
        assumeTrue(packagedWithExample(), "packaged without -Dquaestor.provider.artifactId=quaestor-example-greeting-provider");
        try (var server = new ServerProcess("provider-jar", env)) {
            server.start();
            server.awaitReady(Duration.ofSeconds(120));
            assertTrue(Files.readString(server.log()).contains("mount hello: hello://greetings/ -> greeting"));
            McpSyncClient client = McpClients.connect(URI.create(server.url() + "/").toURL(), TestIssuer.tokenFor("bob"));
            try {
                var read = client.readResource(new McpSchema.ReadResourceRequest("hello://greetings/ada"));
                assertEquals("Hello, ada!", ((McpSchema.TextResourceContents) read.contents().get(0)).text());
                assertEquals(-32003, McpClients.expectError(() -> client.readResource(
                        new McpSchema.ReadResourceRequest("hello://greetings/secret"))).getJsonRpcError().code());
            } finally {
                client.closeGracefully();
            }
        }
    }

    @Test
    void withoutTheProviderTheMountStopsStartUp() throws Exception {
        assumeFalse(packagedWithExample(), "packaged with the example provider");
        var server = new ServerProcess("provider-jar-missing", env);
        Files.deleteIfExists(server.log());
        assertNotEquals(0, server.runToExit(Duration.ofSeconds(120)));
        assertTrue(Files.readString(server.log()).contains(
                "mount 'hello': unknown provider 'greeting' (available: database, filesystem, git, static)"), "see " + server.log());
    }
}
