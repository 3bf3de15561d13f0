package dev.quaestor.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.evidence.Hex;
import dev.quaestor.review.DailyReview;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The compliance console in a real headless Chromium (Debian's, through its chromedriver), signed in through the
 * test issuer's code flow: an auditor searches, opens a request and sees its policy revision's text, sees a
 * record tampered in the database flagged on the integrity page, signs off a review, and exports OCSF whose
 * every event has the fields OCSF 1.8.0 requires; a clinician is refused; a form without its CSRF token is
 * refused; signing out ends the session on the server, so copied cookies are refused and recorded; an idle session
 * must sign in again.
 */
@QuarkusTest
class ConsoleBrowserTest {

    private static WebDriver browser;
    private static final String SUMMARY = "file:///docs/trials/onco-734/summary.md";

    @Inject
    DailyReview reviews;

    @Inject
    dev.quaestor.audit.AuditLog audit;

    private String base;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @BeforeEach
    void traffic() throws Exception {
        base = "http://127.0.0.1:" + RestAssured.port;
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + SUMMARY + "\"}}")
                .statusCode(200);
        Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"file:///docs/trials/onco-734/raw/sample-001.bin\"}}").statusCode(200);
        assertTrue(audit.signCheckpointNow(), "under a signed checkpoint, so proofs exist");
        browser.manage().deleteAllCookies();
    }

    @AfterEach
    void signOutOfIssuerForm() {
        browser.manage().deleteAllCookies();
    }

    private void signIn(String user, String path) {
        Browser.signIn(browser, base + path, user);
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    @Test
    void anAuditorSearchesOpensARequestAndSeesItsPolicyRevisionsText() throws Exception {
        signIn("auditor", "/console");
        assertTrue(browser.getCurrentUrl().endsWith("/console/search"), browser.getCurrentUrl());
        browser.findElement(By.name("subject")).sendKeys("alice");
        browser.findElement(By.name("uriPrefix")).sendKeys("file:///docs/trials/onco-734/summary");
        new Select(browser.findElement(By.name("kind"))).selectByValue("OUTCOME");
        browser.findElement(By.id("search-button")).click();
        Browser.waiting(browser).until(ExpectedConditions.urlContains("subject=alice"));
        var rows = browser.findElements(By.cssSelector("#results tbody tr"));
        assertFalse(rows.isEmpty(), browser.getPageSource());
        for (var row : rows) {
            assertTrue(row.getText().contains("alice") && row.getText().contains(SUMMARY), row.getText());
        }
        rows.get(rows.size() - 1).findElement(By.className("record-link")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("decision-outcome")));
        assertTrue(text("decision").contains("ALLOW"), text("decision"));
        assertTrue(text("outcome").contains("ok"), text("outcome"));
        assertTrue(text("rules").contains("pi-read-trials"), text("rules"));
        // The revision's text as it was: the file that holds the deciding rule, open, with the rule in it.
        String policy = text("policy-text");
        assertTrue(policy.contains("clinical-trials.yaml") && policy.contains("- id: pi-read-trials"), policy);
        byte[] file = Files.readAllBytes(Path.of("../../content/docs/trials/onco-734/summary.md"));
        assertEquals(Hex.of(MessageDigest.getInstance("SHA-256").digest(file)), text("sha256"));
        browser.findElement(By.id("show-proof")).click(); // folded behind "show proof"
        assertTrue(text("proof").startsWith(dev.quaestor.evidence.RecordProof.HEADER), text("proof"));
        // Who read it: every read of the file, with the digest of what was served.
        browser.get(base + "/console/timeline/resource?uri=" + java.net.URLEncoder.encode(SUMMARY, StandardCharsets.UTF_8));
        String timeline = text("timeline");
        assertTrue(timeline.contains("alice") && timeline.contains(Hex.of(MessageDigest.getInstance("SHA-256").digest(file))), timeline);
        // What did alice read, with refusals: the raw file she was refused is there too.
        browser.get(base + "/console/timeline/subject?subject=alice&refusals=true");
        assertTrue(text("timeline").contains("raw/sample-001.bin") && text("timeline").contains("DENY"), text("timeline"));
    }

    @Test
    void aSummaryOfRefusalsShowsItsCountAndTheSearchTotalsAddItUp() throws Exception {
        // 40 denied reads in one batch from a subject past nothing yet: 30 (the attempt limit) are records of their
        // own, the other 10 are counted in one summary, which names the three URIs they asked for.
        String zed = TestIssuer.sign(TestIssuer.claims("zed"));
        String session = Rpc.initialize(zed, "2025-03-26");
        var batch = new StringBuilder("[");
        for (int i = 0; i < 40; i++) {
            batch.append(i == 0 ? "" : ",").append("{\"jsonrpc\":\"2.0\",\"id\":").append(i)
                    .append(",\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/home/bob/z").append(i % 3)
                    .append(".md\"}}");
        }
        List<String> ids = Rpc.call(zed, session, batch.append("]").toString()).statusCode(200).extract().jsonPath()
                .getList("error.data.requestId");
        String summary = ids.get(39);
        assertEquals(summary, ids.get(30), "the refusals past the limit all name the summary that counts them");

        signIn("auditor", "/console/search?subject=zed");
        String totals = text("totals");
        // The session's opening, 30 denials and one summary of 10: 32 records standing for 41 events.
        assertTrue(totals.contains("This search: 32 record(s), standing for 41 event(s)"), totals);
        var merged = browser.findElements(By.className("merged-count"));
        assertEquals(1, merged.size(), browser.getPageSource());
        assertEquals("×10", merged.get(0).getText());
        browser.get(base + "/console/requests/" + summary);
        String panel = text("merged");
        assertTrue(panel.startsWith("10 refused request(s)"), panel);
        String uris = text("merged-uris");
        for (int k = 0; k < 3; k++) {
            assertTrue(uris.contains("file:///docs/home/bob/z" + k + ".md"), uris);
        }
    }

    @Test
    void aReviewerCannotSignOffAReviewThatFlagsTheirOwnActivity() throws Exception {
        // The auditor is refused by the admin API: a denial of their own, flagged in today's review.
        RestAssured.given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).get("/admin/policy").then().statusCode(403);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        reviews.reviewDay(today);
        signIn("auditor", "/console/reviews/" + today);
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("review-state")));
        assertTrue(browser.findElement(By.id("findings")).getText().contains("auditor"), text("findings"));
        assertTrue(text("sign-off-refused").contains("your own activity"), text("sign-off-refused"));
        assertTrue(browser.findElements(By.id("sign-off")).isEmpty());
        // Posting the form anyway, with a valid CSRF token, is refused and recorded.
        String csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                .collect(Collectors.joining("; "));
        var post = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console/reviews/" + today + "/sign-off"))
                .header("Cookie", cookies).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + java.net.URLEncoder.encode(csrf, StandardCharsets.UTF_8) + "&note=mine"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(409, post.statusCode(), post.body());
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM audit_entry WHERE method = 'review/sign-off' "
                        + "AND subject = 'auditor' AND outcome = 'refused' AND detail LIKE 'review:" + today + "%'");
                var signed = c.createStatement().executeQuery("SELECT signed_at FROM review WHERE review_day = DATE '" + today + "'")) {
            rs.next();
            assertTrue(rs.getLong(1) >= 1, "the refused sign-off is on record");
            signed.next();
            assertEquals(null, signed.getObject(1), "and the review stays unsigned");
        }
    }

    @Test
    void aRecordTamperedInTheDatabaseIsFlaggedOnTheIntegrityPageWithItsPosition() throws Exception {
        signIn("auditor", "/console/integrity");
        assertTrue(text("verdict").contains("Everything verifies"), text("verdict"));
        long id;
        long seq;
        String log;
        String subject;
        try (Connection su = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            try (var rs = su.createStatement().executeQuery("SELECT id, seq, chain_id, subject FROM audit_entry WHERE subject = 'alice' "
                    + "AND kind = 'OUTCOME' ORDER BY id DESC LIMIT 1")) {
                assertTrue(rs.next());
                id = rs.getLong(1);
                seq = rs.getLong(2);
                log = rs.getString(3);
                subject = rs.getString(4);
            }
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            su.createStatement().execute("UPDATE audit_entry SET subject = 'mallory' WHERE id = " + id);
            su.commit();
            try {
                browser.navigate().refresh();
                String verdict = text("verdict");
                assertTrue(verdict.contains("does not verify"), verdict);
                var problems = browser.findElements(By.cssSelector("#problems tbody tr"));
                assertFalse(problems.isEmpty());
                String first = problems.get(0).getText();
                assertTrue(first.contains(log), first);
                assertEquals(Long.toString(seq), problems.get(0).findElement(By.className("broken-seq")).getText(), first);
                assertTrue(browser.findElement(By.id("logs")).getText().contains("BROKEN"));
            } finally {
                su.createStatement().execute("SET LOCAL session_replication_role = replica");
                su.createStatement().execute("UPDATE audit_entry SET subject = '" + subject + "' WHERE id = " + id);
                su.commit();
            }
        }
        browser.navigate().refresh();
        assertTrue(text("verdict").contains("Everything verifies"), text("verdict"));
    }

    @Test
    void anAuditorSignsOffAReviewAndTheSignOffIsOnRecordWithHowTheySignedIn() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(3);
        var result = reviews.reviewDay(day);
        assertNotNull(result);
        signIn("auditor", "/console/reviews");
        browser.findElement(By.linkText(day.toString())).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("review-state")));
        browser.findElement(By.name("note")).sendKeys("Checked the day's denials and reads; nothing to follow up.");
        browser.findElement(By.id("sign-off")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("review-state"), "signed off"));
        assertTrue(text("review-state").contains("auditor"), text("review-state"));
        assertTrue(text("review-state").contains("acr=" + TestIssuer.CONSOLE_ACR + ";amr=pwd,otp"), text("review-state"));
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT auth_context, content_sha256, kind FROM audit_entry WHERE "
                        + "method = 'review/sign-off' AND uri = 'review:" + day + "' AND outcome = 'ok'")) {
            assertTrue(rs.next(), "the sign-off is an audit record");
            assertEquals("acr=" + TestIssuer.CONSOLE_ACR + ";amr=pwd,otp", rs.getString(1));
            assertEquals("ADMIN", rs.getString(3));
        }
        // Signing the same review again is refused.
        assertTrue(browser.findElements(By.id("sign-off")).isEmpty());
    }

    @Test
    void anOcsfExportHasEveryFieldOcsf180RequiresAndItsDigestIsOnRecord() throws Exception {
        signIn("auditor", "/console/search?subject=alice");
        String href = browser.findElement(By.id("export-ocsf")).getAttribute("href");
        assertTrue(href.contains("format=ocsf") && href.contains("subject=alice"), href);
        // The download, in this browser session (its cookies), as the link would fetch it.
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                .collect(Collectors.joining("; "));
        var response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(href)).header("Cookie", cookies).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode(), new String(response.body(), StandardCharsets.UTF_8));
        String requestId = response.headers().firstValue("X-Request-Id").orElseThrow();
        byte[] body = response.body();
        List<String> lines = new String(body, StandardCharsets.UTF_8).lines().toList();
        assertFalse(lines.isEmpty());
        var json = new ObjectMapper();
        boolean sawDeny = false;
        for (String line : lines) {
            JsonNode e = json.readTree(line);
            OcsfFields.check(e);
            assertEquals(6003, e.path("class_uid").asInt(), line);
            assertEquals("alice", e.path("actor").path("user").path("name").asText(), line);
            sawDeny |= e.path("disposition_id").asInt() == 2 && e.path("policy").path("name").asText().contains("no-raw-genomics");
        }
        assertTrue(sawDeny, "the denied read is an event with disposition Blocked under its rule");
        // One event per request: no request id twice.
        assertEquals(lines.size(), lines.stream().map(l -> l.replaceAll(".*\"correlation_uid\":\"([^\"]+)\".*", "$1")).distinct().count());
        String digest = Hex.of(MessageDigest.getInstance("SHA-256").digest(body));
        // The same search as JSON Lines (records as the evidence export writes them) and CSV: the same records.
        // Each record by its log and seq; alice's later records may land between the two exports, so the CSV holds at
        // least the records the JSON Lines export held.
        var jsonlRecords = new java.util.HashSet<String>();
        for (String format : List.of("jsonl", "csv")) {
            var other = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(href.replace("format=ocsf", "format=" + format)))
                    .header("Cookie", cookies).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, other.statusCode());
            List<String> rowsOut = other.body().lines().toList();
            if (format.equals("csv")) {
                assertTrue(rowsOut.get(0).startsWith("v,log,seq,time,request,kind"), rowsOut.get(0));
                assertTrue(rowsOut.size() > lines.size(), "a row per record, more records than requests");
                var csvRecords = rowsOut.stream().skip(1).map(row -> row.split(",", 4))
                        .map(f -> f[1].replace("\"", "") + "/" + f[2].replace("\"", "")).toList(); // "vm","3": quoted
                assertEquals(csvRecords.size(), new java.util.HashSet<>(csvRecords).size(), "a CSV row per record, none twice");
                assertTrue(csvRecords.containsAll(jsonlRecords), "every JSON Lines record is a CSV row");
            } else {
                assertTrue(rowsOut.size() > lines.size(), "a line per record, more records than requests: " + rowsOut.size());
                for (String l : rowsOut) {
                    JsonNode r = json.readTree(l);
                    jsonlRecords.add(r.path("log").asText() + "/" + r.path("seq").asText());
                    assertEquals("record", r.path("type").asText(), l);
                    assertEquals("alice", r.path("subject").asText(), l);
                    assertEquals(64, r.path("hash").asText().length(), l);
                }
            }
        }
        // The export's completion is recorded once the last byte is written, after the client has read it.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).pollInterval(java.time.Duration.ofMillis(20))
                .until(() -> count("request_id = '" + requestId + "'") >= 2);
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT method, content_sha256, bytes, auth_context FROM audit_entry WHERE "
                        + "request_id = '" + requestId + "' ORDER BY id")) {
            assertTrue(rs.next());
            assertEquals("console/export", rs.getString(1));
            assertTrue(rs.next(), "the export's completion is on record");
            assertEquals("console/export/done", rs.getString(1));
            assertEquals(digest, rs.getString(2), "the record carries the SHA-256 of the file produced");
            assertEquals(body.length, rs.getLong(3));
            assertEquals("acr=" + TestIssuer.CONSOLE_ACR + ";amr=pwd,otp", rs.getString(4));
        }
    }

    @Test
    void aClinicianIsRefusedAndTheRefusalIsOnRecord() throws Exception {
        signIn("bob", "/console/search");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        assertTrue(text("refused").contains("bob"), text("refused"));
        assertTrue(browser.findElements(By.id("results")).isEmpty());
        browser.get(base + "/console/policy");
        assertFalse(browser.findElements(By.id("refused")).isEmpty(), "a clinician does not see policy history either");
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM audit_entry WHERE subject = 'bob' AND kind = 'AUDIT_READ' "
                        + "AND method = 'console/search' AND decision = 'DENY'")) {
            rs.next();
            assertTrue(rs.getLong(1) >= 1);
        }
    }

    @Test
    void anAdministratorSeesPolicyHistoryButNotTheAuditTrail() {
        signIn("admin", "/console");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("policy-status")));
        assertTrue(browser.findElement(By.id("activations")).getText().contains("start-up"));
        browser.get(base + "/console/search");
        assertFalse(browser.findElements(By.id("refused")).isEmpty(), "search is for auditors");
    }

    @Test
    void policyHistoryShowsAFileChangeWithItsAnnotationAndADiffOfTheTwoRevisions() throws Exception {
        Path annotation = TestPolicies.DIR.resolve(".revision-annotation");
        Path added = TestPolicies.DIR.resolve("zz-console-history.yaml");
        Files.writeString(annotation, "commit 1a2b3c4 (console history test): allow clinicians the console fixtures\n");
        Files.writeString(added, CHANGED_POLICY);
        try {
            signIn("auditor", "/console/policy");
            Browser.waiting(browser).until(d -> {
                d.navigate().refresh();
                return d.findElement(By.id("activations")).getText().contains("commit 1a2b3c4");
            });
            var row = browser.findElements(By.cssSelector("#activations tbody tr")).get(0);
            assertTrue(row.getText().contains("file change") || row.getText().contains("reload"), row.getText());
            row.findElement(By.partialLinkText("diff from")).click();
            Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("diff")));
            String diff = text("diff");
            assertTrue(diff.contains("zz-console-history.yaml added"), diff);
            assertTrue(diff.lines().anyMatch(l -> l.startsWith("+") && l.contains("{id: console-history-allow")), diff);
        } finally {
            Files.deleteIfExists(added);
            Files.deleteIfExists(annotation);
        }
    }

    static final String CHANGED_POLICY = """
            apiVersion: quaestor/v1
            kind: Policy
            metadata: {name: console-history}
            rules:
              - {id: console-history-allow, effect: allow, actions: [read], resources: ["test://console/**"], subjects: {roles: [clinician]}}
            """;

    @Test
    void aFormPostedWithoutItsCsrfTokenIsRefused() {
        signIn("auditor", "/console/search?subject=alice");
        ((JavascriptExecutor) browser).executeScript(
                "var f = document.querySelector('form[action=\"/console/searches\"]');"
                        + "f.querySelector('input[name=csrf]').remove(); f.querySelector('input[name=name]').value = 'forged'; f.submit();");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        assertTrue(text("refused").contains("CSRF"), text("refused"));
        browser.get(base + "/console/search");
        assertFalse(browser.findElement(By.id("saved")).getText().contains("forged"));
        // The same form with its token is accepted.
        browser.findElement(By.name("name")).sendKeys("kept");
        browser.findElement(By.id("save-search")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("saved"), "kept"));
    }

    private String cookieHeader() {
        return browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
    }

    private HttpResponse<String> getWith(String cookies, String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url.startsWith("http") ? url : base + url))
                .header("Cookie", cookies).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long count(String where) throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM audit_entry WHERE " + where)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The id (its first 16 hex digits, as records name it) of the newest console session of {@code subject}. */
    private static String newestSession(String subject) throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT id_hash FROM console_session WHERE subject = '" + subject
                        + "' ORDER BY started_at DESC LIMIT 1")) {
            assertTrue(rs.next(), "a session on the server for " + subject);
            return rs.getString(1).substring(0, 16);
        }
    }

    /**
     * Signing out ends the session on the server: cookies copied before (the identity provider's session, the console
     * session, CSRF) are refused at once on every page and export, each attempt is recorded with the session it names,
     * and the copy is sent to sign in again.
     */
    @Test
    void signingOutEndsTheSessionOnTheServerAndReplayedCookiesAreRefusedAndRecorded() throws Exception {
        signIn("auditor", "/console/search?subject=alice");
        String session = newestSession("auditor");
        assertEquals(1, count("method = 'console/sign-in' AND kind = 'AUTHENTICATION' AND subject = 'auditor' AND detail = 'session "
                + session + "'"), "the sign-in that opened the console session is on record");
        String export = browser.findElement(By.id("export-csv")).getAttribute("href");
        String copied = cookieHeader();
        assertTrue(copied.contains(ConsoleCookies.SESSION + "=") && copied.contains("q_session_console"), copied);
        assertEquals(200, getWith(copied, "/console/search?subject=alice").statusCode(), "the copy works while the session lasts");

        browser.findElement(By.cssSelector("form[action='/console/logout'] button")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("signed-out")));
        assertEquals(1, count("method = 'console/logout' AND subject = 'auditor' AND detail = 'session " + session + "'"));

        for (String url : List.of("/console/search?subject=alice", export, "/console/integrity", "/console")) {
            var replay = getWith(copied, url);
            assertEquals(303, replay.statusCode(), url + ": " + replay.body());
            assertEquals("/console/signed-out?reason=ended", URI.create(replay.headers().firstValue("Location").orElseThrow()).getRawPath()
                    + "?" + URI.create(replay.headers().firstValue("Location").orElseThrow()).getRawQuery(), url);
            assertFalse(replay.body().contains("alice"), "nothing of the page: " + replay.body());
            assertTrue(replay.headers().allValues("Set-Cookie").stream().anyMatch(c -> c.startsWith(ConsoleCookies.SESSION + "=;")),
                    "the copy's cookies are cleared: " + replay.headers().allValues("Set-Cookie"));
        }
        assertEquals(4, count("method = 'console/session' AND kind = 'AUTHENTICATION' AND decision = 'DENY' AND subject = 'auditor' "
                + "AND outcome = 'signed-out' AND detail LIKE 'session " + session + " signed-out at %'"), "every replay is on record");

        // The identity provider's cookie alone (the console session's cookie left out) is no session either.
        String withoutSession = java.util.Arrays.stream(copied.split("; ")).filter(c -> !c.startsWith(ConsoleCookies.SESSION + "="))
                .collect(Collectors.joining("; "));
        assertEquals(303, getWith(withoutSession, "/console/search").statusCode());
        assertTrue(count("method = 'console/session' AND subject = 'auditor' AND outcome = 'session-unknown'") >= 1);
    }

    /** What keeps a session alive is on the server, and nothing a request that has not signed in could renew. */
    @Test
    void aSessionWithoutRecentActivityMustSignInAgain() throws Exception {
        signIn("auditor", "/console/search");
        String session = newestSession("auditor");
        // Sixteen minutes without a request, as the server sees it.
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.createStatement().executeUpdate("UPDATE console_session SET last_seen_at = last_seen_at - INTERVAL '16 minutes' "
                    + "WHERE id_hash LIKE '" + session + "%'");
        }
        browser.get(base + "/console/search");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("signed-out")));
        assertTrue(text("signed-out").contains("without activity"), text("signed-out"));
        assertEquals(1, count("method = 'console/session' AND subject = 'auditor' AND outcome = 'idle-timeout' AND detail LIKE 'session "
                + session + "%'"));
        browser.get(base + "/console/search");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        // A sign-in's return that is not one (a code and a state nobody issued) opens nothing and renews nothing.
        var forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console?code=x&state=y")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(forged.headers().allValues("Set-Cookie").stream().noneMatch(c -> c.startsWith(ConsoleCookies.SESSION + "=")
                && !c.startsWith(ConsoleCookies.SESSION + "=;")), forged.headers().allValues("Set-Cookie").toString());
        assertTrue(forged.statusCode() == 302 || forged.statusCode() == 401, forged.statusCode() + " " + forged.body());
    }
}
