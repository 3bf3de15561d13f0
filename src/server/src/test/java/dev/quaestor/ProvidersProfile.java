package dev.quaestor;

import dev.quaestor.provider.database.ContentDatabase;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;

/**
 * The server with a git mount (a repository written here with JGit) and a database mount (the
 * PostgreSQL content database), configured the way an administrator would.
 */
public class ProvidersProfile implements QuarkusTestProfile {

    public static final Path REPO = Path.of("target", "providers-test", "handbook");
    /** A filesystem mount the subscription tests change under the running server (file:///watched/). */
    public static final Path WATCHED = Path.of("target", "providers-test", "watched");
    public static final byte[] LOGO = {(byte) 0x89, 'P', 'N', 'G', 0, 9, 8, 7};

    @Override
    public Map<String, String> getConfigOverrides() {
        createRepository();
        createWatched();
        ContentDatabase.reset();
        var c = new HashMap<String, String>();
        c.put("quaestor.mounts.watched.provider", "filesystem");
        c.put("quaestor.mounts.watched.uri", "file:///watched/");
        c.put("quaestor.mounts.watched.root", WATCHED.toString());
        c.put("quaestor.subscriptions.keep-alive", "1S");
        c.put("quaestor.mounts.handbook.provider", "git");
        c.put("quaestor.mounts.handbook.uri", "git://handbook/");
        c.put("quaestor.mounts.handbook.repository", REPO.toString());
        c.put("quaestor.mounts.handbook.options.poll-interval", "500ms");
        c.put("quaestor.mounts.records.provider", "database");
        c.put("quaestor.mounts.records.uri", "db://records/");
        c.put("quaestor.mounts.records.options.jdbc-url", ContentDatabase.url());
        c.put("quaestor.mounts.records.options.username", "postgres");
        c.put("quaestor.mounts.records.options.queries.patient.template", "db://records/patients/{id}");
        c.put("quaestor.mounts.records.options.queries.patient.sql", "SELECT id, name, ward FROM patients WHERE id = ?");
        c.put("quaestor.mounts.records.options.queries.patient.types", "integer");
        c.put("quaestor.mounts.records.options.queries.patient.list-sql", "SELECT id FROM patients ORDER BY id");
        c.put("quaestor.mounts.records.options.queries.ward.template", "db://records/wards/{ward}/patients.csv");
        c.put("quaestor.mounts.records.options.queries.ward.sql", "SELECT id, name FROM patients WHERE ward = ? ORDER BY id");
        c.put("quaestor.mounts.records.options.queries.ward.kind", "list");
        // A mount on the server's own default datasource (shared with sessions and subscriptions; the audit log has
        // pools of its own, which no mount may name): a query that only reads.
        c.put("quaestor.mounts.probe.provider", "database");
        c.put("quaestor.mounts.probe.uri", "db://probe/");
        c.put("quaestor.mounts.probe.options.datasource", "<default>");
        c.put("quaestor.mounts.probe.options.queries.answer.template", "db://probe/answer");
        c.put("quaestor.mounts.probe.options.queries.answer.sql", "SELECT 42 AS answer");
        c.put("quaestor.mounts.probe.options.queries.answer.kind", "list");
        c.put("quaestor.mounts.probe.options.queries.answer.format", "json");
        // Its reads are about sharing the pool, not about time-boxing: the tests' 700 ms would fail them on a pause.
        c.put("quaestor.mounts.probe.timeout-ms", "5000");
        return c;
    }

    private static void createWatched() {
        try {
            delete(WATCHED);
            Files.createDirectories(WATCHED.resolve("sub"));
            Files.writeString(WATCHED.resolve("a.txt"), "a1\n");
            Files.writeString(WATCHED.resolve("control.txt"), "c1\n");
            Files.writeString(WATCHED.resolve("sub").resolve("b.txt"), "b1\n");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static void createRepository() {
        try {
            if (Files.exists(REPO)) {
                try (Stream<Path> old = Files.walk(REPO)) {
                    for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            Files.createDirectories(REPO);
            try (Git git = Git.init().setDirectory(REPO.toFile()).setInitialBranch("main").call()) {
                Files.writeString(REPO.resolve("README.md"), "# Handbook\n", StandardCharsets.UTF_8);
                Files.createDirectories(REPO.resolve("img"));
                Files.write(REPO.resolve("img/logo.png"), LOGO);
                git.add().addFilepattern(".").call();
                var who = new PersonIdent("Test", "test@example.org", Instant.parse("2026-01-10T09:00:00Z"), ZoneOffset.UTC);
                git.commit().setMessage("first").setAuthor(who).setCommitter(who).setSign(false).call();
                git.branchCreate().setName("release/2.x").call();
            }
        } catch (IOException | org.eclipse.jgit.api.errors.GitAPIException e) {
            throw new IllegalStateException(e);
        }
    }
}
