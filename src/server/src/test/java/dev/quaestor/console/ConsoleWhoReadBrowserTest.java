package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who read what at the level of a folder: reads and refusals counted by subject, by folder, by URI and by day, each
 * count opening the records it counts; and what one subject read, by folder. The timelines at any level and over a
 * range: who read a folder (a URI prefix, not only one file), what a subject read, newest first, from a date or a
 * preset range relative to now; an empty answer says so and why, a bad date is an error; the AI client is the one the
 * MCP client declared.
 */
@QuarkusTest
class ConsoleWhoReadBrowserTest {

    private static final String FOLDER = "file:///docs/trials/onco-734/";
    private static final String SUMMARY = FOLDER + "summary.md";
    private static final String RAW = FOLDER + "raw/sample-001.bin";
    private static WebDriver browser;

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

    /** Each test signs in afresh. */
    @AfterEach
    void signOut() {
        browser.manage().deleteAllCookies();
    }

    private static void read(String token, String session, String uri) {
        Rpc.read(token, session, uri).statusCode(200);
    }

    /** The row of a table whose first cell is {@code key}. */
    private static WebElement row(String table, String key) {
        return browser.findElements(By.cssSelector("#" + table + " tbody tr")).stream()
                .filter(r -> r.findElement(By.tagName("td")).getText().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError(key + " not in " + browser.findElement(By.id(table)).getText()));
    }

    private static String counts(String table, String key) {
        var cells = row(table, key).findElements(By.tagName("td"));
        return cells.get(1).getText() + "/" + cells.get(2).getText();
    }

    @Test
    void aFolderCountedBySubjectFolderUriAndDayEachCountOpeningItsRecords() {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Instant start = Instant.now().minusSeconds(1);
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        read(alice, session, SUMMARY);
        read(alice, session, SUMMARY);
        read(alice, session, RAW); // refused: raw data is not for her
        String stranger = "stranger-" + UUID.randomUUID().toString().substring(0, 8);
        String token = TestIssuer.sign(TestIssuer.claims(stranger));
        read(token, Rpc.initialize(token, "2025-06-18"), SUMMARY); // refused: no role

        String range = "&from=" + URLEncoder.encode(start.toString(), StandardCharsets.UTF_8);
        Browser.signIn(browser, base + "/console/who-read?uriPrefix=" + URLEncoder.encode(FOLDER, StandardCharsets.UTF_8) + range, "auditor");
        String totals = browser.findElement(By.id("who-read-totals")).getText();
        assertTrue(totals.contains("2 read(s) and 2 refused read(s) by 2 subject(s)"), totals);
        assertTrue(totals.endsWith(", from " + start + " to now."), "the range counted: " + totals);
        assertEquals("2/1", counts("by-subject", "alice"));
        assertEquals("0/1", counts("by-subject", stranger));
        assertEquals("2/1", counts("by-uri", SUMMARY));
        assertEquals("0/1", counts("by-uri", RAW));
        assertEquals("2/1", counts("by-folder", FOLDER));
        assertEquals("0/1", counts("by-folder", FOLDER + "raw/"));
        assertEquals("2/2", counts("by-day", LocalDate.now(ZoneOffset.UTC).toString()));

        // alice's reads: the count opens exactly those records on the search page.
        row("by-subject", "alice").findElement(By.className("reads")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("/console/search"));
        var rows = browser.findElements(By.cssSelector("#results tbody tr"));
        assertEquals(2, rows.size(), browser.findElement(By.id("results")).getText());
        for (var r : rows) {
            assertTrue(r.getText().contains("alice") && r.getText().contains("OUTCOME") && r.getText().contains(SUMMARY), r.getText());
        }
        // The stranger's refusal: the DENY on record.
        browser.navigate().back();
        row("by-subject", stranger).findElement(By.className("refused")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("/console/search"));
        String refused = browser.findElement(By.id("results")).getText();
        assertTrue(refused.contains(stranger) && refused.contains("DENY"), refused);

        // What alice read, by folder.
        browser.get(base + "/console/who-read?subject=alice" + range);
        assertEquals("2/0", counts("by-folder", FOLDER));
        assertEquals("0/1", counts("by-folder", FOLDER + "raw/"));
        assertTrue(browser.findElements(By.id("by-subject")).isEmpty(), "one subject: no table by subject");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static List<WebElement> rows() {
        return browser.findElements(By.cssSelector("#timeline tbody tr"));
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    @Test
    void aFolderAndASubjectOverARangeNewestFirstWithPresetsAndNoSilentEmptyPage() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Instant start = Instant.now().minusSeconds(1);
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        read(alice, session, SUMMARY);
        read(alice, session, RAW); // refused: raw data is not for her
        Thread.sleep(20);
        read(alice, session, SUMMARY);
        String stranger = "stranger-" + UUID.randomUUID().toString().substring(0, 8);
        String token = TestIssuer.sign(TestIssuer.claims(stranger));
        read(token, Rpc.initialize(token, "2025-06-18"), SUMMARY); // refused: no role

        // A folder, not a file: both reads of the file in it, newest first, with the client the MCP client declared.
        String range = "&from=" + enc(start.toString()) + "&tz=UTC";
        Browser.signIn(browser, base + "/console/timeline/resource?uri=" + enc(FOLDER) + range, "auditor");
        assertTrue(text("timeline-count").contains("2 found"), text("timeline-count"));
        var rows = rows();
        assertEquals(2, rows.size());
        for (var r : rows) {
            assertTrue(r.getText().contains("alice") && r.getText().contains(SUMMARY), r.getText());
            assertTrue(r.findElement(By.className("client")).getText().contains("rest-assured/1"), r.getText());
        }
        String newer = rows.get(0).findElement(By.className("utc")).getText();
        String older = rows.get(1).findElement(By.className("utc")).getText();
        assertTrue(newer.compareTo(older) >= 0, newer + " before " + older + ": newest first");

        // With refusals: alice's refused raw file and the stranger's refusal, under the same folder.
        browser.findElement(By.id("timeline-refusals")).click();
        browser.findElement(By.id("timeline-button")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("refusals=true"));
        assertTrue(text("timeline-count").contains("4 found"), text("timeline-count"));
        String all = text("timeline");
        assertTrue(all.contains(stranger) && all.contains(RAW) && all.contains("DENY"), all);

        // What alice read over the same range, refusals too.
        browser.get(base + "/console/timeline/subject?subject=alice&refusals=true" + range);
        assertTrue(text("timeline-count").contains("3 found"), text("timeline-count"));

        // A preset: the last hour, kept relative in the address and the form.
        browser.get(base + "/console/timeline/resource?uri=" + enc(FOLDER));
        assertEquals("-30d", browser.findElement(By.id("timeline-from")).getAttribute("value"), "the last 30 days unless a range is given");
        browser.findElements(By.className("preset")).stream().filter(a -> a.getText().equals("last hour")).findFirst().orElseThrow().click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("from=-1h"));
        assertEquals("-1h", browser.findElement(By.id("timeline-from")).getAttribute("value"));
        assertTrue(rows().size() >= 2, text("timeline"));

        // Nothing in the range: said, with why, never a bare "0 shown".
        browser.get(base + "/console/timeline/resource?uri=" + enc("file:///docs/no-such-folder/") + range);
        assertTrue(rows().isEmpty());
        String empty = text("timeline-empty");
        assertTrue(empty.contains("No read of file:///docs/no-such-folder/ or anything under it in this range")
                && empty.contains("with refusals"), empty);
        // Who read what, for a folder with nothing in it: said too.
        browser.get(base + "/console/who-read?uriPrefix=" + enc("file:///docs/no-such-folder/") + range);
        String none = text("who-read-empty");
        assertTrue(none.contains("No read and no refused read of anything under file:///docs/no-such-folder/ in this range"), none);
        // Outside the range: the reads are there, the range leaves them out, and the page says so.
        browser.get(base + "/console/timeline/resource?uri=" + enc(FOLDER) + "&from=2020-01-01&to=2020-01-02&tz=UTC");
        assertTrue(text("timeline-empty").contains("Widen the range"), text("timeline-empty"));
        assertTrue(text("timeline-range").contains("2020-01-01 00:00:00"), text("timeline-range"));

        // A bad date is an error, with no table.
        browser.get(base + "/console/timeline/resource?uri=" + enc(FOLDER) + "&from=31.02.2026");
        assertTrue(text("timeline-error").contains("'from' is not a date or time"), text("timeline-error"));
        assertTrue(browser.findElements(By.id("timeline")).isEmpty());
        assertFalse(browser.findElements(By.id("timeline-error")).isEmpty());
    }
}
