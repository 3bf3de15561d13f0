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
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Who read what at the level of a folder: reads and refusals counted by subject, by folder, by URI and by day, each
 * count opening the records it counts; and what one subject read, by folder.
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
}
