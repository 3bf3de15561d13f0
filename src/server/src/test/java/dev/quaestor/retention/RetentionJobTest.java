package dev.quaestor.retention;

import dev.quaestor.support.Wait;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.write.MonthOfRecords;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Repo;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPostgres;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The retention job on PostgreSQL, as the owner: a month past its age (January 2019, written by a log of its own with
 * the server's key), a legal hold on one subject (bob) and a released one on another (alice). While a long read holds
 * audit_entry, the job's detach gives way after 2 s and tries again, and the server goes on serving; once the read ends
 * the month is archived, the archive verifies offline, bob's records are still in the database with proofs that
 * verify, alice's are not kept, and the run's AUDIT_RETENTION record says so. Then the refusals: each before anything
 * is written. Last, the console in Chromium: a search over an archived month names its archive file and how to check and
 * query it; the case shows what its hold kept; a kept request's page shows its copies, and its proof verifies offline.
 */
@QuarkusTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RetentionJobTest {

    @Inject
    dev.quaestor.audit.read.ArchivedMonths archivedMonths;

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Inject
    RetentionRunRecorder recorder;

    @TempDir
    Path tmp;

    /** From the first test, for the console's pages in the last: the case, its hold on bob's records, January's file's SHA-256. */
    private static long heldCase;
    private static long bobsHold;
    private static String januarySha;

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private String writeMonth(YearMonth month) {
        return MonthOfRecords.write(ds, config, log, month, 20);
    }

    private long hold(long caseId, String subject) {
        return as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"" + subject + "\",\"from\":\"2018-12-01T00:00:00Z\","
                + "\"reason\":\"litigation\"}").post("/audit/cases/" + caseId + "/holds").then().statusCode(201).extract().jsonPath()
                .getLong("id");
    }

    private Path key() throws Exception {
        Path key = tmp.resolve("audit.vkey");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().<String>path("vkey"));
        return key;
    }

    private static int ageFor(YearMonth month) {
        return (int) ChronoUnit.MONTHS.between(month, YearMonth.now(ZoneOffset.UTC)) - 1;
    }

    private record Ran(int exit, String out) {
    }

    private static Ran job(String... args) {
        var text = new ByteArrayOutputStream();
        var print = new PrintStream(text, true, StandardCharsets.UTF_8);
        int exit = RetentionJob.run(args, Map.of("QUAESTOR_DB_URL", TestDatabase.url(), "QUAESTOR_DB_OWNER_USER", "postgres"), print);
        return new Ran(exit, text.toString(StandardCharsets.UTF_8));
    }

    private static String[] run(int age, Path out, Path key, String... more) {
        var args = new ArrayList<>(List.of("run", "--age", Integer.toString(age), "--out", out.toString(), "--trust", key.toString(),
                "--max-months", "1", "--lock-timeout", "2s", "--retry-every", "1s", "--retry-for", "3m"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    private static Ran verifier(String... args) {
        var text = new ByteArrayOutputStream();
        var print = new PrintStream(text, true, StandardCharsets.UTF_8);
        int exit = Main.run(args, print, print);
        return new Ran(exit, text.toString(StandardCharsets.UTF_8));
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    private static long count(String sql) throws SQLException {
        try (Connection c = superuser(); var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** One read by alice through /mcp: how long it took to be answered (it must be answered, not refused). */
    private static long timedRead() {
        String token = TestIssuer.tokenFor("alice");
        long t0 = System.nanoTime();
        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200)
                .body("result.contents[0].uri", org.hamcrest.Matchers.equalTo("file:///docs/trials/onco-734/summary.md"));
        return (System.nanoTime() - t0) / 1_000_000;
    }

    @Test
    @Order(1)
    void aMonthPastItsAgeIsArchivedWhileHeldRecordsStayProvableAndServingGoesOn() throws Exception {
        YearMonth month = YearMonth.of(2019, 1);
        String chain = writeMonth(month);
        long caseId = as("auditor").body("{\"title\":\"Retention\",\"members\":[\"auditor2\"]}").post("/audit/cases").then()
                .statusCode(201).extract().jsonPath().getLong("id");
        long bobHold = hold(caseId, "bob");
        long aliceHold = hold(caseId, "alice");
        heldCase = caseId;
        bobsHold = bobHold;
        String base = "/audit/cases/" + caseId + "/holds/" + aliceHold;
        as("auditor").body("{\"reason\":\"not needed\"}").post(base + "/release-request").then().statusCode(200);
        as("auditor2").post(base + "/release").then().statusCode(200);
        // As a case opened before cases had seal keys: the run gives it one, to seal its hold's target under.
        try (Connection owner = superuser(); var s = owner.createStatement()) {
            s.execute("ALTER TABLE audit_case DISABLE TRIGGER audit_case_seal_key_once");
            s.executeUpdate("UPDATE audit_case SET seal_key = NULL WHERE id = " + caseId);
            s.execute("ALTER TABLE audit_case ENABLE TRIGGER audit_case_seal_key_once");
        }
        assertNull(as("auditor2").get("/audit/cases/" + caseId).then().statusCode(200).extract().jsonPath().getString("sealKey"));
        Path key = key();
        Path out = tmp.resolve("archive");

        // A long read holds audit_entry (and its partitions) while the job runs.
        CompletableFuture<Ran> running;
        var reads = new ArrayList<Long>();
        long heldMs;
        try (Connection longRead = superuser()) {
            longRead.setAutoCommit(false);
            // Of this month's records: it holds audit_entry itself, which a detach must lock, not the old month's partition.
            try (var rs = longRead.createStatement().executeQuery("SELECT count(*) FROM audit_entry WHERE event_time >= '"
                    + YearMonth.now(ZoneOffset.UTC).atDay(1) + "T00:00:00Z'")) {
                rs.next();
            }
            long heldFrom = System.nanoTime();
            running = CompletableFuture.supplyAsync(() -> job(run(ageFor(month), out, key)));
            // The job's detach gives way at least twice while the read holds the table; the server serves meanwhile.
            Wait.holdsWithin(Duration.ofSeconds(120), Duration.ofMillis(100), () -> running.isDone()
                    || count("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%quaestor_audit_archive%'") > 0);
            for (int i = 0; i < 8; i++) {
                reads.add(timedRead());
                Thread.sleep(300);
            }
            assertFalse(running.isDone(), "the job waits for the long read: " + (running.isDone() ? running.get().out() : ""));
            longRead.commit();
            heldMs = (System.nanoTime() - heldFrom) / 1_000_000;
        }
        Ran ran = running.get();
        assertEquals(0, ran.exit(), ran.out());
        assertTrue(ran.out().contains("gave way"), "the detach timed out and was tried again: " + ran.out());
        // Every read was served (its records committed within the commit timeout) although the long read held the table
        // for longer than that: a detach waiting for it without giving way would have queued the writer behind it.
        assertTrue(heldMs > config.commitTimeout().toMillis(), "held " + heldMs + " ms");
        assertEquals(8, reads.size(), "each read answered with its content, in ms: " + reads);

        // The month is archived: the file verifies offline, its SHA-256 is beside it, the partition is gone.
        Path file = out.resolve("audit-archive-2019-01.jsonl");
        Ran verified = verifier("verify", file.toString(), "--trust", key.toString());
        assertEquals(0, verified.exit(), verified.out());
        assertTrue(verified.out().contains("VERIFIED: 22 records"), verified.out());
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        januarySha = sha;
        assertEquals(sha + "  audit-archive-2019-01.jsonl\n", Files.readString(out.resolve("audit-archive-2019-01.jsonl.sha256")));
        assertFalse(Files.exists(out.resolve("audit-archive-2019-01.jsonl.partial")));
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname = 'audit_entry_2019_01'"));
        assertEquals(0, count("SELECT count(*) FROM audit_entry WHERE chain_id = '" + chain + "'"));
        assertEquals(1, count("SELECT count(*) FROM audit_archive WHERE chain_id = '" + chain + "' AND seq = 22"));

        // Bob's five records are kept, each with a proof that verifies offline; alice's hold was released: nothing kept.
        var proofs = new ArrayList<String>();
        try (Connection c = superuser(); var rs = c.createStatement().executeQuery("SELECT subject, proof, checkpoint_size FROM "
                + "audit_held_record WHERE chain_id = '" + chain + "' AND hold_id = " + bobHold + " ORDER BY seq")) {
            while (rs.next()) {
                assertEquals("bob", rs.getString(1));
                assertEquals(22, rs.getLong(3), "proved to the month's last checkpoint");
                proofs.add(rs.getString(2));
            }
        }
        assertEquals(5, proofs.size());
        assertEquals(0, count("SELECT count(*) FROM audit_held_record WHERE hold_id = " + aliceHold));
        for (String proof : proofs) {
            Path p = Files.writeString(tmp.resolve("held-" + System.nanoTime() + ".proof"), proof);
            Ran checked = verifier("check", p.toString(), "--trust", key.toString());
            assertEquals(0, checked.exit(), checked.out());
            assertTrue(checked.out().contains("bob"), checked.out());
        }

        // The run is on record: what it archived and what it kept for which hold.
        recorder.recordPending();
        var records = AuditRow.list("kind = 'AUDIT_RETENTION' AND detail LIKE ? ORDER BY id", "%archived 2019-01%");
        assertEquals(1, records.size(), records.toString());
        String detail = records.get(0).detail;
        assertEquals("archived", records.get(0).outcome);
        assertTrue(detail.contains("22 record(s) (" + chain + " up to seq 22)") && detail.contains("sha256 " + sha)
                && detail.contains("verified offline"), detail);
        // The hold's target only by its HMAC under the case's key, as every record of a case's text: any auditor reads this
        // record, and only the case's members hold the key.
        String sealKey = as("auditor2").get("/audit/cases/" + caseId).then().statusCode(200).extract().jsonPath().getString("sealKey");
        assertTrue(detail.contains("kept 5 record(s) for hold " + bobHold + " of case " + caseId + " (SUBJECT target hmac-sha256="
                + dev.quaestor.support.Hmac.sha256(sealKey, "bob") + ")"), detail);
        assertFalse(detail.contains("bob"), detail);
        assertFalse(detail.contains("hold " + aliceHold + " "), detail);
        assertTrue(detail.contains("the detach gave way to long reads"), detail);
        recorder.recordPending();
        assertEquals(1, AuditRow.list("kind = 'AUDIT_RETENTION' AND detail LIKE ?", "%archived 2019-01%").size(), "each run is recorded once");
    }

    @Test
    @Order(2)
    void refusalsComeBeforeAnythingIsWritten() throws Exception {
        YearMonth month = YearMonth.of(2019, 2);
        String chain = writeMonth(month);
        long caseId = as("auditor").body("{\"title\":\"Refusals\"}").post("/audit/cases").then().statusCode(201).extract()
                .jsonPath().getLong("id");
        long bobHold = hold(caseId, "bob");
        Path key = key();
        Path out = tmp.resolve("archive");
        int age = ageFor(month);
        try {
            // The current month is never archived.
            Ran r = job(run(0, out, key));
            assertEquals(2, r.exit(), r.out());
            assertTrue(r.out().contains("the current month is never archived"), r.out());
            assertFalse(Files.exists(out), "nothing written");
            // So does the owner's script for a manual archive: it refuses before it writes a file.
            var script = new ProcessBuilder("bash", Repo.ROOT.resolve("scripts/audit-archive.sh").toString(),
                    YearMonth.now(ZoneOffset.UTC).plusMonths(1).toString(), out.toString(), "--trust", key.toString())
                    .redirectErrorStream(true);
            script.environment().putAll(TestPostgres.get().libpqEnvironment(TestDatabase.NAME));
            Process p = script.start();
            String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(1, p.waitFor(), said);
            assertTrue(said.contains("refusing to archive the current month or later") && said.contains("nothing was written"), said);
            assertFalse(Files.exists(out), "nothing written");
            // An archive directory that cannot be made (its parent is missing: a volume not mounted) is refused and named.
            Path unmounted = tmp.resolve("not-mounted").resolve("archive");
            r = job(run(age, unmounted, key));
            assertEquals(2, r.exit(), r.out());
            assertTrue(r.out().contains("refused: --out " + unmounted + " does not exist"), r.out());
            assertFalse(Files.exists(unmounted.getParent()), "nothing made");
            // A key that is not this database's logs' key is refused and named, before anything is exported.
            var pair = java.security.KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            byte[] encoded = pair.getPublic().getEncoded();
            String foreign = dev.quaestor.evidence.VerifierKey.of("quaestor.audit",
                    java.util.Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length)).toString();
            Path foreignKey = Files.writeString(tmp.resolve("foreign.vkey"), foreign + "\n");
            r = job(run(age, out, foreignKey));
            assertEquals(2, r.exit(), r.out());
            assertTrue(r.out().contains("refused: --trust " + foreignKey + ": no key in it is a key this database's logs are signed with"),
                    r.out());
            assertTrue(r.out().contains(Files.readString(key).strip()), "the database's key is named: " + r.out());
            assertFalse(Files.exists(out), "nothing written");
            assertEquals(0, count("SELECT count(*) FROM audit_held_record WHERE hold_id = " + bobHold), "nothing kept");
            // A month already archived: its file exists; the run refuses, the file is untouched, nothing is kept.
            Files.createDirectories(out);
            Path existing = Files.writeString(out.resolve("audit-archive-2019-02.jsonl"), "an earlier archive\n");
            r = job(run(age, out, key));
            assertEquals(2, r.exit(), r.out());
            assertTrue(r.out().contains("2019-02 was already archived"), r.out());
            assertEquals("an earlier archive\n", Files.readString(existing));
            assertEquals(1, Files.list(out).count(), "no .partial, no .sha256");
            assertEquals(0, count("SELECT count(*) FROM audit_held_record WHERE hold_id = " + bobHold));
            assertEquals(20 + 2, count("SELECT count(*) FROM audit_entry WHERE chain_id = '" + chain + "'"));
            Files.delete(existing);
            // The retention lock: an age below it is refused; a lock may be raised, never lowered.
            Ran locked = job("lock", "--age", Integer.toString(age + 2), "--reason", "preservation order 12");
            assertEquals(0, locked.exit(), locked.out());
            long lockRefusals = count("SELECT count(*) FROM retention_run WHERE outcome = 'refused' AND summary LIKE 'lock at %'");
            Ran lower = job("lock", "--age", Integer.toString(age + 1), "--reason", "lower");
            assertEquals(2, lower.exit(), lower.out());
            assertTrue(lower.out().contains("refused: the lock keeps " + (age + 2) + " month(s) online"), lower.out());
            assertEquals(lockRefusals + 1, count("SELECT count(*) FROM retention_run WHERE outcome = 'refused' AND summary LIKE 'lock at "
                    + (age + 1) + " month(s) (reason: lower): refused: the lock keeps " + (age + 2) + " month(s) online%'"),
                    "the refused lowering is on record as the other refusals are");
            r = job(run(age, out, key));
            assertEquals(2, r.exit(), r.out());
            assertTrue(r.out().contains("the retention lock keeps " + (age + 2) + " month(s) online"), r.out());
            assertEquals(0, Files.list(out).count(), "nothing written");
            try (Connection app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
                var e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> app.createStatement().executeUpdate("DELETE FROM retention_lock"));
                assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
            }
            try (Connection owner = superuser()) {
                var e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                        () -> owner.createStatement().executeUpdate("DELETE FROM retention_lock"));
                assertTrue(e.getMessage().contains("immutable"), e.getMessage());
            }
            recorder.recordPending();
            var refused = AuditRow.list("kind = 'AUDIT_RETENTION' AND outcome = 'refused' ORDER BY id");
            assertTrue(refused.stream().anyMatch(x -> x.detail.contains("2019-02 was already archived")), refused.toString());
            assertTrue(refused.stream().anyMatch(x -> x.detail.contains("the retention lock keeps")), refused.toString());
            assertTrue(refused.stream().anyMatch(x -> x.detail.contains("(reason: lower): refused: the lock keeps")), refused.toString());
            assertTrue(refused.stream().anyMatch(x -> x.detail.contains("refused: --out " + unmounted)), refused.toString());
            assertTrue(refused.stream().anyMatch(x -> x.detail.contains("refused: --trust " + foreignKey)), refused.toString());
        } finally {
            // Leave no lock and no old month behind for other tests of this database.
            try (Connection su = superuser()) {
                su.setAutoCommit(false);
                su.createStatement().execute("SET LOCAL session_replication_role = replica");
                su.createStatement().execute("DELETE FROM retention_lock");
                su.commit();
            }
        }
        Ran r = job(run(age, out, key));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("archived 2019-02"), r.out());
        // The writer opened March ahead; it never received a record: the next run drops it with nothing to keep or verify.
        assertEquals(1, count("SELECT count(*) FROM pg_class WHERE relname = 'audit_entry_2019_03'"));
        r = job(run(age - 1, out, key));
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("dropped 2019-03: it held no record"), r.out());
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname = 'audit_entry_2019_03'"));
        assertFalse(Files.exists(out.resolve("audit-archive-2019-03.jsonl")));
    }

    @Test
    @Order(3)
    void theConsoleSaysWhichMonthsAreArchivedAndShowsWhatTheHoldsKept() throws Exception {
        String base = "http://127.0.0.1:" + io.restassured.RestAssured.port;
        Path key = key();
        WebDriver browser = Browser.start();
        try {
            // A search over an archived month: not "0 record(s)" silently, but which months, which files, and how to read them.
            Browser.signIn(browser, base + "/console/search?subject=bob&from=2019-01-01&to=2019-01-31&tz=UTC", "auditor");
            String notice = browser.findElement(By.id("archived-notice")).getText();
            assertTrue(notice.contains("2019-01") && notice.contains("audit-archive-2019-01.jsonl (SHA-256 " + januarySha + ")")
                    && notice.contains("quaestor-verify.jar verify audit-archive-2019-01.jsonl")
                    && notice.contains("jq -c 'select(.type == \"record\" and .subject == \"bob\")' audit-archive-2019-01.jsonl"), notice);
            assertFalse(notice.contains("2019-02"), "only the months the search reaches: " + notice);
            Browser.screenshot(browser, "console-search-archived.png", 900);
            assertTrue(browser.findElements(By.cssSelector("#results tbody tr")).isEmpty());
            browser.get(base + "/console/search?subject=bob&from=" + YearMonth.now(ZoneOffset.UTC).atDay(1) + "&tz=UTC");
            assertTrue(browser.findElements(By.id("archived-notice")).isEmpty(), "a search of this month reaches no archive");

            // The case's page: what the hold on bob kept, five records of January and five of February (archived by the second test).
            browser.get(base + "/console/cases/" + heldCase);
            var rows = browser.findElements(By.cssSelector("#held tbody tr"));
            assertEquals(10, rows.size(), browser.findElement(By.id("held")).getText());
            assertEquals(5, rows.stream().filter(r -> r.getText().contains(" 2019-01-")).count(), browser.findElement(By.id("held")).getText());
            for (var row : rows) {
                assertTrue(row.getText().startsWith(bobsHold + " ") && row.getText().contains("bob"), row.getText());
            }

            // A kept request of the archived month: found, with its records and a proof that verifies offline.
            String kept;
            try (Connection c = superuser(); var rs = c.createStatement().executeQuery("SELECT request_id FROM audit_held_record"
                    + " WHERE hold_id = " + bobsHold + " ORDER BY seq LIMIT 1")) {
                rs.next();
                kept = rs.getString(1);
            }
            browser.get(base + "/console/requests/" + kept);
            String held = browser.findElement(By.id("held-request")).getText();
            assertTrue(held.contains("This request's month is archived") && held.contains("hold " + bobsHold + " of case " + heldCase),
                    held);
            Browser.screenshot(browser, "console-request-held.png", 700);
            String cookies = browser.manage().getCookies().stream().map(k -> k.getName() + "=" + k.getValue())
                    .collect(java.util.stream.Collectors.joining("; "));
            var proof = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create(base + "/console/requests/" + kept + "/proof")).header("Cookie", cookies).GET().build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, proof.statusCode(), proof.body());
            Ran checked = verifier("check", Files.writeString(tmp.resolve(kept + ".tlog-proof"), proof.body()).toString(),
                    "--trust", key.toString());
            assertEquals(0, checked.exit(), checked.out());
            assertTrue(checked.out().contains("bob"), checked.out());

            // And it can be added to a case from there, as any other request.
            new org.openqa.selenium.support.ui.Select(browser.findElement(By.id("add-to-case"))).selectByValue(Long.toString(heldCase));
            browser.findElement(By.id("add-to-case-button")).click();
            Browser.waiting(browser).until(org.openqa.selenium.support.ui.ExpectedConditions.urlMatches("/console/cases/" + heldCase + "$"));
            assertTrue(browser.findElement(By.id("requests")).getText().contains(kept + " 0 archived"),
                    browser.findElement(By.id("requests")).getText());

            // A request no hold kept: the page says where the archived months' files are.
            String lost = "no-such-request-" + System.nanoTime();
            browser.get(base + "/console/requests/" + lost);
            String none = browser.findElement(By.id("no-record")).getText();
            // The page names the newest archive: this run's month, or a later one other tests on this database archived.
            var archives = archivedMonths.all();
            assertTrue(archives.stream().anyMatch(a -> a.lastMonth().equals("2019-02") && a.file().equals("audit-archive-2019-02.jsonl")),
                    archives.toString());
            var newest = archives.get(archives.size() - 1);
            assertTrue(none.contains("Records up to the end of " + newest.lastMonth() + " are archived") && none.contains(newest.file())
                    && none.contains(".request == \"" + lost + "\""), none);
        } finally {
            browser.quit();
        }
    }

    /**
     * A hold put after the month's held records were kept (while the month was being exported) stops the month's drop:
     * with the holds locked, the records it covers are found not kept, nothing is dropped, and once they are kept the
     * month goes.
     */
    @Test
    @Order(4)
    void aHoldPutWhileTheMonthWasExportedStopsItsDropUntilItsRecordsAreKept() throws Exception {
        YearMonth month = YearMonth.of(2019, 3);
        writeMonth(month);
        long records = count("SELECT count(*) FROM audit_entry_2019_03"); // the reads and the writer's own records
        var m = new ArchiveMonth(month, "audit_entry_2019_03");
        var o = new RetentionOptions(ageFor(month), tmp, key(), null, 1, Duration.ofSeconds(2), Duration.ofSeconds(30),
                Duration.ofSeconds(1));
        var printed = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (Connection c = superuser()) {
            var ends = HeldCopy.monthEnds(c, m);
            HeldCopy.copy(c, m, ends, -1); // the holds as they were when the run began

            long caseId = as("auditor").body("{\"title\":\"Held mid-run\"}").post("/audit/cases").then().statusCode(201).extract()
                    .jsonPath().getLong("id");
            long aliceHold = hold(caseId, "alice"); // put while the month is being exported
            var refused = PartitionDrop.drop(c, m, records, o, printed);
            assertTrue(refused != null && !refused.done() && refused.notKept() == 15, "alice's 15 records are not kept yet");
            assertEquals(records, count("SELECT count(*) FROM audit_entry_2019_03"), "nothing was dropped");

            HeldCopy.copy(c, m, ends, -1); // the next run keeps them
            var dropped = PartitionDrop.drop(c, m, records, o, printed);
            assertTrue(dropped != null && dropped.done(), "then the month goes");
            assertEquals(15, count("SELECT count(*) FROM audit_held_record WHERE hold_id = " + aliceHold));
        }
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname = 'audit_entry_2019_03'"), "the partition is gone");
    }

    /**
     * A run that stops after it dropped a month (here its SHA-256 file cannot be written: a directory has its name) is
     * on record as failed, saying that the month was dropped and where its archive is: no drop goes unrecorded.
     */
    @Test
    @Order(5)
    void aRunThatStopsAfterItsDropIsOnRecordAsFailedWithTheDrop() throws Exception {
        YearMonth month = YearMonth.of(2019, 4);
        writeMonth(month);
        Path out = tmp.resolve("stopped");
        Files.createDirectories(out.resolve("audit-archive-2019-04.jsonl.sha256"));
        Ran r = job(run(ageFor(month), out, key()));
        assertEquals(1, r.exit(), r.out());
        assertTrue(r.out().contains("failed"), r.out());
        assertEquals(0, count("SELECT count(*) FROM pg_class WHERE relname = 'audit_entry_2019_04'"), "the month was dropped");
        assertEquals(1, count("SELECT count(*) FROM retention_run WHERE outcome = 'failed' AND summary LIKE '%dropped 2019-04%'"));
        recorder.recordPending();
        var records = AuditRow.list("kind = 'AUDIT_RETENTION' AND detail LIKE ?", "%dropped 2019-04%");
        assertEquals(1, records.size(), records.toString());
        assertEquals("failed", records.get(0).outcome);
        assertTrue(records.get(0).detail.contains("stopped: ") && records.get(0).detail.contains("audit-archive-2019-04.jsonl"),
                records.get(0).detail);
    }
}
