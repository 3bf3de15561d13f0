package dev.quaestor;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.AnchoredProfile;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPostgres;
import dev.quaestor.support.TestTsa;
import dev.quaestor.testtsa.OpensslTsa;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * Checkpoints anchored by a time-stamping authority that is not ours: OpenSSL's {@code openssl ts -reply} behind an
 * https server that asks for a client certificate and basic credentials ({@link TestTsa}). The server anchors each
 * checkpoint of its log; an export verifies offline with quaestor-verify against the pinned TSA root, each token
 * verifies with {@code openssl ts -verify}, and a proof of one record carries its checkpoint's token. With the TSA
 * stalled (a minute in operations, shortened here to a dozen seconds, which shows the same: the lag metric rises
 * with the time the TSA does not answer), reads keep being served, the lag shows in the metric, in
 * {@code /audit/verify} and on the console's integrity page; once it answers again, every checkpoint is anchored. A
 * TSA that sends its headers and then trickles its answer is abandoned at the timeout, and counted as a failure.
 */
@QuarkusTest
@TestProfile(AnchoredProfile.class)
class AnchoringTest {

    static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";

    @Inject
    AgroalDataSource ds;

    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");
    private final String admin = TestIssuer.tokenFor("admin");

    private JsonPath verify() {
        return given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
    }

    private String log() {
        return given().get("/.well-known/quaestor-audit-key").then().extract().path("log");
    }

    private Path vkey() throws Exception {
        return Files.writeString(tmp.resolve("audit.vkey"), given().get("/.well-known/quaestor-audit-key").then().extract().<String>path("vkey"));
    }

    private record Run(int code, String out) {
    }

    private static Run verifier(String... args) {
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(args, print, print);
        return new Run(code, out.toString(StandardCharsets.UTF_8));
    }

    /** The size of this log's last checkpoint. */
    private long lastCheckpoint(String log) throws Exception {
        return query("SELECT COALESCE(MAX(seq), 0) FROM audit_checkpoint WHERE chain_id = '" + log + "' AND note IS NOT NULL");
    }

    /** Checkpoints of this log up to {@code size} with no anchor. */
    private long unanchored(String log, long size) throws Exception {
        return query("SELECT COUNT(*) FROM audit_checkpoint k WHERE k.chain_id = '" + log + "' AND k.note IS NOT NULL AND k.seq <= " + size
                + " AND NOT EXISTS (SELECT 1 FROM audit_anchor a WHERE a.chain_id = k.chain_id AND a.seq = k.seq)");
    }

    private long query(String sql) throws Exception {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void read(int times) {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (int i = 0; i < times; i++) {
            Rpc.call(alice, session, READ).statusCode(200);
        }
    }

    /** Waits until every checkpoint of this log signed so far is anchored; returns the size anchored through. */
    private long allAnchored(String log) throws Exception {
        long size = lastCheckpoint(log);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> unanchored(log, size) == 0);
        return size;
    }

    @Test
    void anAnchoredExportVerifiesOfflineAndEachTokenWithOpensslTsVerify() throws Exception {
        read(3);
        String log = log();
        long size = allAnchored(log);
        assertTrue(size > 0);

        // The whole export, checked by the offline verifier against the signing key and the pinned TSA root.
        Path export = tmp.resolve("audit.jsonl");
        Files.write(export, given().header("Authorization", "Bearer " + auditor).get("/audit/export").then().statusCode(200)
                .extract().asByteArray());
        Path root = TestTsa.server().root();
        Run ok = verifier("verify", export.toString(), "--trust", vkey().toString(), "--tsa-ca", root.toString(),
                "--allow-unsigned-tail"); // the export's own record, at least, comes after the last checkpoint
        assertEquals(Main.VERIFIED, ok.code, ok.out);
        Matcher anchored = Pattern.compile("Log " + Pattern.quote(log) + ": verified\\n(?:  .*\\n)*?  (\\d+) of them time-stamped;"
                + " time-stamps vouch up to seq (\\d+)").matcher(ok.out);
        assertTrue(anchored.find(), ok.out);
        assertTrue(Long.parseLong(anchored.group(2)) >= size, ok.out);
        // The same export against another TSA's root: every token of the log is refused, with where.
        OpensslTsa other = OpensslTsa.create(tmp.resolve("other"), "Another TSA");
        Run unpinned = verifier("verify", export.toString(), "--trust", vkey().toString(), "--tsa-ca", other.root().toString(),
                "--allow-unsigned-tail");
        assertEquals(Main.NOT_VERIFIED, unpinned.code, unpinned.out);
        assertTrue(unpinned.out.contains("does not chain to a pinned TSA root"), unpinned.out);

        // Each checkpoint as served carries its token; OpenSSL verifies it over the checkpoint's text.
        String note = given().header("Authorization", "Bearer " + auditor).queryParam("log", log).queryParam("size", size)
                .get("/audit/checkpoint").then().statusCode(200).extract().asString();
        byte[] token = Anchor.find(note);
        assertNotNull(token, note);
        byte[] text = note.substring(0, note.lastIndexOf("\n\n") + 1).getBytes(StandardCharsets.UTF_8);
        assertNull(OpensslTsa.verify(tmp, text, token, root), "openssl ts -verify");
        assertNotNull(OpensslTsa.verify(tmp, "another checkpoint\n".getBytes(StandardCharsets.UTF_8), token, root),
                "openssl refuses the token over other data");

        // The archive file (what scripts/audit-archive.sh writes, as the database owner) carries the tokens too.
        Path archive = tmp.resolve("archive.jsonl");
        var nextMonth = java.time.YearMonth.now(java.time.ZoneOffset.UTC).plusMonths(1).atDay(1).atStartOfDay()
                .atOffset(java.time.ZoneOffset.UTC);
        try (Connection c = java.sql.DriverManager.getConnection(TestDatabase.url(), TestPostgres.SUPERUSER, "");
                var ps = c.prepareStatement("SELECT * FROM quaestor_audit_archive_export(?)")) {
            ps.setObject(1, nextMonth);
            var lines = new StringBuilder();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    lines.append(rs.getString(1)).append('\n');
                }
            }
            Files.writeString(archive, lines);
        }
        assertTrue(Files.readString(archive).contains("\\n\u2014 rfc3161-timestamp "), "checkpoint notes in the archive carry tokens");
        // Taken while the log is live (this month up to now), not at a month's end: it may end with records no
        // checkpoint covers yet, as an export does.
        Run archived = verifier("verify", archive.toString(), "--trust", vkey().toString(), "--tsa-ca", root.toString(),
                "--allow-unsigned-tail");
        assertEquals(Main.VERIFIED, archived.code, archived.out);
        assertTrue(Pattern.compile("Log " + Pattern.quote(log) + ": verified\\n(?:  .*\\n)*?  [1-9]\\d* of them time-stamped")
                .matcher(archived.out).find(), archived.out);

        // The online check holds the tokens to the same pinned root.
        JsonPath v = verify();
        assertTrue(v.getBoolean("verified"), v.prettify());
        assertTrue(v.getLong("logs.find { it.log == '" + log + "' }.anchoredThrough") >= size, v.prettify());
        assertTrue(v.getBoolean("anchoring.enabled"));
        assertEquals(TestTsa.server().url().toString(), v.getString("anchoring.tsa"));
        assertTrue(TestTsa.server().granted() > 0 && TestTsa.server().refused() == 0, "basic credentials and a client certificate");
    }

    @Test
    void aProofOfOneRecordCarriesItsCheckpointsTokenAndChecksOffline() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String requestId = Rpc.call(alice, session, READ).statusCode(200).extract().header("X-Request-Id");
        // Once a checkpoint covers the request's records (409 until then) and is anchored, its proof carries the token.
        var proofs = new ArrayList<String>();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> {
            var r = given().header("Authorization", "Bearer " + auditor).queryParam("requestId", requestId).get("/audit/proof");
            proofs.add(r.statusCode() + ":" + r.asString());
            return r.statusCode() == 200 && r.asString().split("\n\u2014 rfc3161-timestamp ", -1).length == 3;
        });
        String proof = proofs.get(proofs.size() - 1).substring(4);
        Path file = Files.writeString(tmp.resolve(requestId + ".tlog-proof"), proof);
        Run checked = verifier("check", file.toString(), "--trust", vkey().toString(), "--tsa-ca", TestTsa.server().root().toString());
        assertEquals(Main.VERIFIED, checked.code, checked.out);
        assertEquals(2, checked.out.split("  time-stamped: CN=Quaestor Test TSA saw this checkpoint at ", -1).length - 1, checked.out);
        // Without the TSA's root the proof still checks on the signing key, and says its time-stamp was not checked.
        Run keyOnly = verifier("check", file.toString(), "--trust", vkey().toString());
        assertEquals(Main.VERIFIED, keyOnly.code, keyOnly.out);
        assertTrue(keyOnly.out.contains("the checkpoint carries a time-stamp token, not checked (no --tsa-ca)"), keyOnly.out);
    }

    @Test
    void aRequestPageUnderATimeStampedCheckpointSaysSoAndItsCommandsNameTheTsaRoot() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String requestId = Rpc.call(alice, session, READ).statusCode(200).extract().header("X-Request-Id");
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300)).until(() -> {
            var r = given().header("Authorization", "Bearer " + auditor).queryParam("requestId", requestId).get("/audit/proof");
            return r.statusCode() == 200 && r.asString().split("\n\u2014 rfc3161-timestamp ", -1).length == 3;
        });
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, "http://127.0.0.1:" + RestAssured.port + "/console/requests/" + requestId, "auditor");
            String claim = browser.findElement(By.id("proof-claim")).getText();
            assertTrue(claim.startsWith("Signed by the log's key and time-stamped by the TSA"), claim);
            assertTrue(claim.contains("check " + requestId + ".tlog-proof --trust audit.vkey --tsa-ca tsa-root.pem"), claim);
            assertFalse(browser.findElements(By.cssSelector("#proven .stamped")).isEmpty(), "the checkpoint is marked time-stamped");
            String proven = browser.findElement(By.id("proven")).getText();
            assertTrue(proven.contains("bundle check FILE.zip --trust audit.vkey --tsa-ca tsa-root.pem"), proven);
        } finally {
            browser.quit();
        }
    }

    @Test
    void withTheTsaStalledReadsAreServedTheLagRisesAndOnceItAnswersEveryCheckpointIsAnchored() throws Exception {
        String log = log();
        read(1);
        allAnchored(log);
        assertTrue(lag() < 3, "not behind before the stall");

        var tsa = TestTsa.server();
        WebDriver browser = null;
        tsa.stall();
        try {
            String alice = TestIssuer.tokenFor("alice");
            String session = Rpc.initialize(alice, "2025-06-18");
            long until = System.nanoTime() + Duration.ofSeconds(12).toNanos();
            var latencies = new ArrayList<Long>();
            while (System.nanoTime() < until) {
                long t = System.nanoTime();
                Rpc.call(alice, session, READ).statusCode(200);
                latencies.add((System.nanoTime() - t) / 1_000_000);
                Thread.sleep(100);
            }
            latencies.sort(null);
            // At least one a second through the stall (a read waiting on the TSA would take its 2 s time-out); the
            // count itself depends on the machine's speed, so the median below says they did not wait.
            assertTrue(latencies.size() >= 12, "reads kept being served: " + latencies.size());
            assertTrue(latencies.get(latencies.size() / 2) < 500, "reads do not wait for the TSA: median " + latencies.get(latencies.size() / 2)
                    + " ms");
            await().atMost(Duration.ofSeconds(20)).until(() -> lag() >= 8);

            JsonPath v = verify();
            assertTrue(v.getBoolean("verified"), "a late anchor is not a broken log: " + v.prettify());
            assertTrue(v.getLong("anchoring.lagSeconds") >= 8, v.prettify());
            assertTrue(v.getInt("anchoring.waiting") >= 5, v.prettify());
            assertTrue(v.getString("anchoring.lastFailure").startsWith("the TSA did not answer within 2000 ms"), v.prettify());
            assertTrue(v.getLong("logs.find { it.log == '" + log + "' }.unanchoredTail") > 0, v.prettify());
            assertTrue(metrics().contains("quaestor_audit_anchor_failures_total{reason=\"timeout\"}"), "failures by reason");

            // The console's integrity page shows the gap too.
            browser = Browser.start();
            Browser.signIn(browser, "http://127.0.0.1:" + RestAssured.port + "/console/integrity", "auditor");
            String panel = browser.findElement(By.id("anchoring")).getText();
            assertTrue(panel.contains("behind by") && Long.parseLong(browser.findElement(By.id("anchoring-lag")).getText()) >= 8, panel);
        } finally {
            tsa.resume();
        }
        long stalledThrough = lastCheckpoint(log);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> unanchored(log, stalledThrough) == 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> lag() == 0);
        assertEquals(0, unanchored(log, stalledThrough), "every checkpoint signed while the TSA was stalled is anchored");
        JsonPath after = verify();
        assertTrue(after.getBoolean("verified"), after.prettify());
        assertTrue(after.getLong("logs.find { it.log == '" + log + "' }.anchoredThrough") >= stalledThrough, after.prettify());
        assertNull(after.get("anchoring.lastFailure"), after.prettify());
        try {
            browser.navigate().refresh();
            assertTrue(browser.findElement(By.id("anchoring")).getText().contains("not behind"),
                    browser.findElement(By.id("anchoring")).getText());
        } finally {
            browser.quit();
        }
    }

    @Test
    void aTsaThatTricklesItsAnswerIsAbandonedAtTheTimeoutAndCountedAsAFailure() throws Exception {
        String log = log();
        read(5);
        allAnchored(log);
        double before = timeouts();
        var tsa = TestTsa.server();
        tsa.trickle();
        try {
            String alice = TestIssuer.tokenFor("alice");
            String session = Rpc.initialize(alice, "2025-06-18");
            // Two exchanges abandoned at the 2 s timeout: the first did not hold the anchorer (a token trickled a byte
            // each half second takes minutes).
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> {
                Rpc.call(alice, session, READ).statusCode(200);
                return timeouts() >= before + 2;
            });
            JsonPath v = verify();
            assertTrue(v.getString("anchoring.lastFailure").startsWith("the TSA did not answer within 2000 ms"), v.prettify());
        } finally {
            tsa.resume();
        }
        allAnchored(log);
        await().atMost(Duration.ofSeconds(30)).until(() -> lag() == 0);
    }

    private double timeouts() {
        Matcher m = Pattern.compile("(?m)^quaestor_audit_anchor_failures_total\\{[^}]*reason=\"timeout\"[^}]*\\} (\\S+)$").matcher(metrics());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }

    private String metrics() {
        return given().header("Authorization", "Bearer " + admin).get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private double lag() {
        Matcher m = Pattern.compile("(?m)^quaestor_audit_anchor_lag_seconds(?:\\{[^}]*\\})? (\\S+)$").matcher(metrics());
        assertTrue(m.find(), "the lag metric is published");
        return Double.parseDouble(m.group(1));
    }
}
