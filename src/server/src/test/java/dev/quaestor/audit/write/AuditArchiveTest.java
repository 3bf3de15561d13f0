package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.AuditLog;

import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.Repo;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPostgres;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retention on PostgreSQL: a log written across three old months (by a writer of its own, with the
 * server's key and a clock set to January 2020) is archived a month at a time with
 * scripts/audit-archive.sh as the owner. After each archive both verifiers (the online endpoint, and
 * quaestor-verify on a fresh export) start the log after the archive marker and say VERIFIED;
 * tampering after the archive is still caught; proofs of later records still work; and a writer
 * whose whole log was archived continues after the marker.
 */
@QuarkusTest
class AuditArchiveTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Inject
    AuditProofs reader;

    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");
    private final String chain = "archive-test-" + System.nanoTime();

    private GroupCommitWriter writer(Clock clock) {
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), chain, new SimpleMeterRegistry(), clock);
        w.start();
        return w;
    }

    private static AuditEvent event(Instant time, String id) {
        return AuditEvent.of(AuditEvent.Kind.DECISION, id).time(time)
                .caller(new Caller("alice", "cli", "acme", List.of("pi"), "10.0.0.1", "ua", "s", null, null, null))
                .method("resources/read").action("read").uri("file:///docs/archive/" + id).decision("ALLOW")
                .rules(List.of("r1")).policyRevision("rev").build();
    }

    /**
     * The writer's start (seq 1) and 25 records in 2020-01 (seq 1-26), 15 in 2020-02 (27-41), 10 in 2020-03 (42-51),
     * and its stop (52). Each month ends at a signed checkpoint, with the tree's right edge stored.
     */
    private void writeThreeMonths() {
        var clock = new dev.quaestor.support.SteppedClock(Instant.parse("2020-01-01T00:00:00Z"));
        var w = writer(clock);
        for (int i = 0; i < 50; i++) {
            Instant t = i < 25 ? Instant.parse("2020-01-10T00:00:00Z") : i < 40 ? Instant.parse("2020-02-10T00:00:00Z")
                    : Instant.parse("2020-03-10T00:00:00Z");
            clock.moveTo(t.plusSeconds(i));
            w.append(event(t.plusSeconds(i), "arch-" + i));
        }
        w.stop(); // signs the final head
    }

    private String archive(String beforeMonth) throws Exception {
        Path key = tmp.resolve("audit-key.pub");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().<String>path("vkey"));
        var pb = new ProcessBuilder("bash", Repo.ROOT.resolve("scripts/audit-archive.sh").toString(), beforeMonth,
                tmp.resolve("archive").toString(), "--trust", key.toString()).redirectErrorStream(true);
        pb.environment().putAll(TestPostgres.get().libpqEnvironment(TestDatabase.NAME));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    private JsonPath onlineVerify() {
        return given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
    }

    private String offlineVerify(int expectExit) throws Exception {
        Path file = tmp.resolve("export-" + System.nanoTime() + ".jsonl");
        Files.write(file, given().header("Authorization", "Bearer " + auditor).get("/audit/export").then().statusCode(200)
                .extract().asByteArray());
        Path key = tmp.resolve("audit.vkey");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().<String>path("vkey"));
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        // The export's own record, at least, comes after the log's last checkpoint: that tail is accepted.
        int code = Main.run(new String[] {"verify", file.toString(), "--trust", key.toString(), "--allow-unsigned-tail"}, print, print);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectExit, code, text);
        return text;
    }

    private Map<String, Object> myChain(JsonPath v) {
        List<Map<String, Object>> logs = v.getList("logs");
        return logs.stream().filter(c -> chain.equals(c.get("log"))).findFirst().orElseThrow(() -> new AssertionError(v.prettify()));
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    /** Runs statements as a superuser with triggers off (what an attacker with full access could do). */
    private static void asSuperuserWithoutTriggers(String... sql) throws SQLException {
        try (Connection su = superuser()) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            for (String s : sql) {
                su.createStatement().execute(s);
            }
            su.commit();
        }
    }

    private void assertBrokenAt(long seq, String message) throws Exception {
        JsonPath v = onlineVerify();
        assertEquals(false, v.getBoolean("verified"), v.prettify());
        List<Map<String, Object>> problems = v.getList("problems");
        var mine = problems.stream().filter(p -> chain.equals(p.get("log"))).findFirst().orElseThrow(() -> new AssertionError(v.prettify()));
        assertEquals(seq, ((Number) mine.get("seq")).longValue(), v.prettify());
        assertTrue(String.valueOf(mine.get("message")).contains(message), v.prettify());
        String offline = offlineVerify(1);
        assertTrue(offline.contains("Log " + chain + ": NOT VERIFIED") && offline.contains(message), offline);
    }

    @Test
    void archivingOldMonthsLeavesTheLiveChainVerifiable() throws Exception {
        writeThreeMonths();
        try (Connection app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
            var e = assertThrows(SQLException.class, () -> app.createStatement().execute(
                    "INSERT INTO audit_archive (chain_id, seq, entry_hash, before_time, records) VALUES ('x', 1, 'h', now(), 1)"));
            assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
            e = assertThrows(SQLException.class, () -> app.createStatement().execute("SELECT quaestor_audit_archive('2020-02-01', 25)"));
            assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
        }

        // January: the start and 25 records, the marker at seq 26.
        String out = archive("2020-02");
        assertTrue(out.contains("VERIFIED: 26 records") && out.contains("archived chain " + chain + " up to seq 26 (26 records)"), out);
        Path file = tmp.resolve("archive/audit-archive-before-2020-02.jsonl");
        assertTrue(Files.readString(tmp.resolve("archive/audit-archive-before-2020-02.jsonl.sha256")).contains(file.getFileName().toString()));
        try (Connection su = superuser(); var rs = su.createStatement().executeQuery(
                "SELECT count(*) FROM audit_entry WHERE chain_id = '" + chain + "'")) {
            rs.next();
            assertEquals(26, rs.getLong(1), "February, March and the stop remain");
        }
        JsonPath v = onlineVerify();
        assertEquals(true, v.getBoolean("verified"), v.prettify());
        assertEquals(26, ((Number) myChain(v).get("archivedThrough")).intValue(), v.prettify());
        assertEquals(26, ((Number) myChain(v).get("records")).intValue(), v.prettify());
        String offline = offlineVerify(0);
        assertTrue(offline.contains("records 27 to 52") && offline.contains("records 1 to 26 are not in this export; a signed checkpoint covers them"), offline);

        // A record after the marker is still proven, from the nodes the archive kept.
        var proof = reader.proof("arch-30");
        assertTrue(proof.file() != null, String.valueOf(proof.unavailable()));

        // Tampering after the archive is still caught: the first record after the marker deleted...
        asSuperuserWithoutTriggers("CREATE TABLE saved_arch AS SELECT * FROM audit_entry WHERE chain_id = '" + chain + "' AND seq = 27",
                "DELETE FROM audit_entry WHERE chain_id = '" + chain + "' AND seq = 27");
        try {
            assertBrokenAt(27, "records are missing");
        } finally {
            asSuperuserWithoutTriggers("INSERT INTO audit_entry OVERRIDING SYSTEM VALUE SELECT * FROM saved_arch", "DROP TABLE saved_arch");
        }
        // ...a field changed...
        asSuperuserWithoutTriggers("UPDATE audit_entry SET subject = 'mallory' WHERE chain_id = '" + chain + "' AND seq = 33");
        try {
            assertBrokenAt(33, "was changed after it was written");
        } finally {
            asSuperuserWithoutTriggers("UPDATE audit_entry SET subject = 'alice' WHERE chain_id = '" + chain + "' AND seq = 33");
        }
        // ...and a forged marker that would hide more records (no signed checkpoint vouches for seq 30).
        asSuperuserWithoutTriggers("INSERT INTO audit_archive (chain_id, seq, entry_hash, before_time, records) SELECT chain_id, seq, "
                + "entry_hash, now(), 5 FROM audit_entry WHERE chain_id = '" + chain + "' AND seq = 30");
        try {
            assertBrokenAt(30, "no signed checkpoint vouches for it");
        } finally {
            asSuperuserWithoutTriggers("DELETE FROM audit_archive WHERE chain_id = '" + chain + "' AND seq = 30");
        }
        assertEquals(true, onlineVerify().getBoolean("verified"), "tampering undone");

        // February and March too: the whole log is archived, and its writer continues after the marker.
        out = archive("2020-04");
        assertTrue(out.contains("VERIFIED: 26 records") && out.contains("up to seq 52 (26 records)"), out);
        var w = writer(Clock.systemUTC());
        w.append(event(Instant.now(), "after-archive"));
        w.stop();
        v = onlineVerify();
        assertEquals(true, v.getBoolean("verified"), v.prettify());
        assertEquals(55, ((Number) myChain(v).get("lastSeq")).intValue(), "start, one record, stop: " + v.prettify());
        assertEquals(52, ((Number) myChain(v).get("archivedThrough")).intValue(), v.prettify());
        assertTrue(offlineVerify(0).contains("records 53 to 55"));
    }
}
