package dev.quaestor.console;

import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A case's whole story in Chromium, with two officers and nothing but the console's pages: the first opens a case from
 * a search, adds a request to it from the request's page, puts a hold on the subject and asks for its release; the
 * console will not let them release it themselves (four eyes: the form is not offered, and a forged post is refused and
 * on record); the second officer signs in, releases it, and downloads the case's evidence bundle, which the verifier
 * checks offline. Every change is on record under the case, each with the officer who made it. With
 * {@code -Dquaestor.screenshots=DIR} it saves the pages on the way.
 */
@QuarkusTest
class CaseStoryBrowserTest {

    private static final String SUMMARY = "file:///docs/trials/onco-734/summary.md";
    private static WebDriver browser;

    @Inject
    dev.quaestor.audit.AuditLog audit;

    @TempDir
    Path tmp;

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

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private List<String> cells(String table, String cssClass) {
        return browser.findElements(By.cssSelector("#" + table + " td." + cssClass)).stream().map(WebElement::getText).toList();
    }

    private String cookies() {
        return browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
    }

    @Test
    void twoOfficersOpenACaseHoldReleaseWithFourEyesAndMakeItsBundle() throws Exception {
        base = "http://127.0.0.1:" + RestAssured.port;
        String subject = "alice";
        // The search starts at a whole second after every read before this test's.
        Instant from = Instant.now().plusSeconds(1).truncatedTo(ChronoUnit.SECONDS);
        Thread.sleep(Duration.between(Instant.now(), from).toMillis() + 50);
        String search = "/console/search?subject=" + subject + "&kind=OUTCOME&from=" + from;
        String token = TestIssuer.tokenFor(subject);
        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + SUMMARY + "\"}}")
                .statusCode(200);
        assertTrue(audit.signCheckpointNow(), "under a signed checkpoint, so the bundle has proofs");

        // The first officer searches, and opens a case from the search, naming the second as a member.
        browser.manage().deleteAllCookies();
        Browser.signIn(browser, base + search, "auditor");
        browser.findElement(By.id("case-title")).sendKeys("Reads of the onco-734 summary");
        browser.findElement(By.id("case-members")).sendKeys("auditor2");
        browser.findElement(By.id("case-search-name")).sendKeys("what " + subject + " read");
        browser.findElement(By.id("case-description")).sendKeys("A patient asked who read their trial summary.");
        shot("console-case-open.png", 1100);
        browser.findElement(By.id("open-case")).click();
        Browser.waiting(browser).until(ExpectedConditions.urlMatches("/console/cases/[0-9]+$"));
        String url = browser.getCurrentUrl();
        long id = Long.parseLong(url.substring(url.lastIndexOf('/') + 1));
        assertTrue(text("members").contains("auditor") && text("members").contains("auditor2"), text("members"));
        assertEquals(List.of("1"), cells("searches", "count"), "the search it was opened from, with its one OUTCOME");
        assertTrue(text("searches").contains("subject=" + subject), text("searches"));

        // From the search, the request's page, and "Add to a case".
        browser.get(base + search);
        browser.findElements(By.className("record-link")).get(0).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("add-to-case")));
        String requestUrl = browser.getCurrentUrl();
        String requestId = requestUrl.substring(requestUrl.lastIndexOf('/') + 1);
        new Select(browser.findElement(By.id("add-to-case"))).selectByValue(Long.toString(id));
        browser.findElement(By.id("add-to-case-button")).click();
        Browser.waiting(browser).until(ExpectedConditions.urlMatches("/console/cases/" + id + "$"));
        assertTrue(text("requests").contains(requestId), text("requests"));
        assertEquals(List.of("2"), cells("requests", "count"), "the read's DECISION and OUTCOME");

        // A hold on the subject, then the release asked for.
        new Select(browser.findElement(By.id("hold-scope"))).selectByValue("SUBJECT");
        browser.findElement(By.id("hold-target")).sendKeys(subject);
        browser.findElement(By.id("hold-from")).sendKeys("2026-01-01T00:00:00Z");
        browser.findElement(By.id("hold-reason")).sendKeys("The patient's complaint: keep every record of the reader.");
        browser.findElement(By.id("put-hold")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("holds"), subject));
        assertEquals(List.of("active"), cells("holds", "state"));

        // A note: the page gives the case's seal key, and the note's HMAC under it, which its record holds.
        String noteText = "The patient's consent is on file.";
        browser.findElement(By.id("note-text")).sendKeys(noteText);
        browser.findElement(By.id("add-note")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.className("note-entry")));
        String sealKey = text("seal-key").strip();
        String noteHmac = dev.quaestor.support.Hmac.sha256(sealKey, noteText);
        assertTrue(browser.findElement(By.className("note-entry")).getText().contains("hmac-sha256 " + noteHmac),
                browser.findElement(By.className("note-entry")).getText());
        assertEquals(1, AuditRow.list("uri = ? AND method = 'audit/cases/add-note' AND detail LIKE ?", dev.quaestor.cases.AuditCase.uriOf(id),
                "%; text hmac-sha256=" + noteHmac).size());
        assertEquals(1, AuditRow.list("uri LIKE ? AND method = 'audit/cases/hold/put' AND detail LIKE ?", dev.quaestor.cases.AuditCase.uriOf(id) + "hold/%",
                "%; target hmac-sha256=" + dev.quaestor.support.Hmac.sha256(sealKey, subject) + ";%").size());
        browser.findElement(By.cssSelector("form.ask-release input[name=reason]")).sendKeys("The complaint is closed.");
        browser.findElement(By.cssSelector("form.ask-release button")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("holds"), "release asked"));
        assertEquals(List.of("release asked"), cells("holds", "state"));
        assertTrue(browser.findElements(By.cssSelector("form.release")).isEmpty(), "the one who asked is offered no release");
        assertTrue(text("holds").contains("another member of staff must release it"), text("holds"));
        shot("console-case-release-asked.png", 1300);

        // Posting the release anyway, with a valid CSRF token, is refused and on record.
        String csrf = browser.findElement(By.cssSelector("#put-hold-form input[name=csrf]")).getAttribute("value");
        long hold = Long.parseLong(browser.findElement(By.cssSelector("#holds tbody tr")).getAttribute("id").substring("hold-".length()));
        var forged = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console/cases/" + id + "/holds/" + hold
                + "/release")).header("Cookie", cookies()).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(409, forged.statusCode(), forged.body());
        assertTrue(forged.body().contains("a second member of staff must release it"), forged.body());
        browser.navigate().refresh();
        assertEquals(List.of("release asked"), cells("holds", "state"), "still held");

        // The second officer releases it, and makes the case's bundle.
        browser.manage().deleteAllCookies();
        Browser.signIn(browser, base + "/console/cases/" + id, "auditor2");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("form.release button")));
        browser.findElement(By.cssSelector("form.release button")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("holds"), "auditor2"));
        assertEquals(List.of("released"), cells("holds", "state"));
        String history = text("history");
        for (String m : List.of("audit/cases/create", "audit/cases/add-search", "audit/cases/add-request", "audit/cases/hold/put",
                "audit/cases/hold/ask-release", "audit/cases/hold/release")) {
            assertTrue(history.contains(m), m + " in " + history);
        }
        shot("console-case.png", 1500);

        String href = browser.findElement(By.id("case-bundle")).getAttribute("href");
        assertTrue(href.endsWith("/console/bundle/case/" + id), href);
        var bundle = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(href)).header("Cookie", cookies()).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, bundle.statusCode(), new String(bundle.body(), StandardCharsets.UTF_8));
        Path zip = Files.write(tmp.resolve("case.zip"), bundle.body());
        Path vkey = Files.writeString(tmp.resolve("audit.vkey"),
                given().get("/.well-known/quaestor-audit-key").then().extract().<String>path("vkey"));
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(new String[] {"bundle", "check", zip.toString(), "--trust", vkey.toString()}, print, print);
        String report = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, code, report);
        assertTrue(report.contains("VERIFIED: 2 record(s), each proven in its log"), report);

        // On record: each change by who made it, the refused release by the one who asked, the release by the second.
        assertEquals(1, AuditRow.list("method = 'audit/cases/hold/ask-release' AND subject = 'auditor' AND decision = 'ALLOW' "
                + "AND uri LIKE ?", "%/" + id + "/hold/" + hold).size());
        assertEquals(1, AuditRow.list("method = 'audit/cases/hold/release' AND subject = 'auditor' AND decision = 'DENY' "
                + "AND outcome = 'refused' AND uri LIKE ?", "%/" + id + "/").size(), "the refused release, under the case");
        assertEquals(1, AuditRow.list("method = 'audit/cases/hold/release' AND subject = 'auditor2' AND decision = 'ALLOW' "
                + "AND uri LIKE ?", "%/" + id + "/hold/" + hold).size());
        // The case's name (its title) is in the bundle, but its record binds it only by its HMAC under the key the
        // bundle's manifest gives.
        String name = id + ": Reads of the onco-734 summary";
        String bundleKey = dev.quaestor.evidence.bundle.Manifest.read(dev.quaestor.evidence.bundle.BundleZip.open(bundle.body()).files()
                .get("manifest.json")).caseSealKey();
        var made = AuditRow.list("method = 'audit/bundle/made' AND subject = 'auditor2' AND outcome = 'ok' AND detail LIKE ?",
                "%(for a case named hmac-sha256=" + dev.quaestor.support.Hmac.sha256(bundleKey, name) + ")%");
        assertEquals(1, made.size(), "the bundle's making, with its SHA-256");
        assertTrue(!made.get(0).detail.contains("onco-734 summary"), made.get(0).detail);
    }

    private void shot(String name, int height) throws Exception {
        Browser.screenshot(browser, name, height);
    }
}
