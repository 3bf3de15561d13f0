package dev.quaestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.McpHttp;
import dev.quaestor.support.McpHttp.Answer;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Two packaged servers on one host with the same log (the same chain id, as two processes get when both default it to
 * the host name): the second refuses to start and says which setting to change, the first serves every read while it
 * tries, and the log holds the first's start alone, with no pause.
 */
class OneWriterPerLogIT {

    private static final String HANDBOOK = "file:///docs/handbook/welcome.md";
    private static final String CHAIN = "one-host";

    @Test
    void aSecondProcessForALogThatIsWrittenRefusesToStartAndWritesNothingWhileTheFirstServesEveryRead() throws Exception {
        new TestIssuer().start();
        String dbUrl = ScratchDatabase.recreate("onewriter");
        Path key = SigningKeyFile.write(Path.of("target", "one-writer-audit-key.pem"));
        Map<String, String> env = Map.ofEntries(
                Map.entry("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer()),
                Map.entry("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE),
                Map.entry("QUAESTOR_DB_URL", dbUrl),
                Map.entry("QUAESTOR_DB_USER", "quaestor_app"),
                Map.entry("QUAESTOR_DB_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_OWNER_USER", "postgres"),
                Map.entry("QUAESTOR_DB_OWNER_PASSWORD", "trust"),
                Map.entry("QUAESTOR_DB_APP_ROLE", "quaestor_app"),
                Map.entry("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString()),
                Map.entry("QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString()));
        var first = new ServerProcess("one-writer-first", env).with("QUAESTOR_AUDIT_CHAIN_ID", CHAIN);
        var second = new ServerProcess("one-writer-second", env).with("QUAESTOR_AUDIT_CHAIN_ID", CHAIN);
        Files.deleteIfExists(first.log());
        Files.deleteIfExists(second.log());
        List<Answer> answers = new CopyOnWriteArrayList<>();
        var reading = new AtomicBoolean(true);
        try {
            first.start();
            first.awaitReady(Duration.ofSeconds(120));
            String token = TestIssuer.tokenFor("alice");
            String session = McpHttp.initialize(first.url(), token);
            var reader = CompletableFuture.runAsync(() -> {
                while (reading.get()) {
                    try {
                        answers.add(McpHttp.read(first.url(), token, session, HANDBOOK));
                        Thread.sleep(150);
                    } catch (Exception e) {
                        answers.add(new Answer(0, null, null, null));
                    }
                }
            });

            int exit = second.runToExit(Duration.ofSeconds(120));
            String secondLog = Files.readString(second.log());
            assertNotEquals(0, exit, "the second process does not start: " + secondLog);
            assertTrue(secondLog.contains("another live process writes the audit log quaestor.audit/" + CHAIN), secondLog);
            assertTrue(secondLog.contains("quaestor.audit.chain-id (QUAESTOR_AUDIT_CHAIN_ID)"), "the message names the setting");

            Thread.sleep(1_000); // reads after the second process has gone, too
            reading.set(false);
            reader.get();
            assertTrue(answers.size() > 10, "reads ran while the second process tried to start: " + answers.size());
            long failed = answers.stream().filter(a -> !a.servedContent()).count();
            assertEquals(0, failed, "every read of the first process was served, of " + answers.size());

            try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                    var q = c.prepareStatement("SELECT kind, count(*) FROM audit_entry WHERE chain_id = ? "
                            + "AND kind IN ('AUDIT_START', 'AUDIT_PAUSE') GROUP BY kind")) {
                q.setString(1, CHAIN);
                var kinds = new java.util.TreeMap<String, Integer>();
                try (var rs = q.executeQuery()) {
                    while (rs.next()) {
                        kinds.put(rs.getString(1), rs.getInt(2));
                    }
                }
                assertEquals(Map.of("AUDIT_START", 1), kinds, "one start and no pause in the log " + CHAIN);
            }
        } finally {
            reading.set(false);
            second.stop();
            first.stop();
        }
    }
}
