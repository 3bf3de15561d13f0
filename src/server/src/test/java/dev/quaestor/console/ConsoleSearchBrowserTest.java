package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search page at volume, in Chromium: newest first unless asked otherwise, a page size, first, previous, next and
 * last pages that between them show every record once, the staff's own reads of the log left out unless asked for, and
 * a bad date that shows its error with no results and nothing to export.
 */
@QuarkusTest
class ConsoleSearchBrowserTest {

    private static WebDriver browser;
    private static final int DENIED = 11;

    private String base;
    private String subject;
    private Instant start;

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

    /** A subject of its own, refused {@value #DENIED} reads one request at a time: its session's opening and 11 denials. */
    @BeforeEach
    void traffic() {
        base = "http://127.0.0.1:" + RestAssured.port;
        start = Instant.now().minusSeconds(1);
        subject = "pager-" + UUID.randomUUID().toString().substring(0, 8);
        String token = TestIssuer.sign(TestIssuer.claims(subject));
        String session = Rpc.initialize(token, "2025-06-18");
        for (int i = 0; i < DENIED; i++) {
            Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"resources/read\",\"params\":{\"uri\":"
                    + "\"file:///docs/home/bob/p" + i + ".md\"}}").statusCode(200);
        }
        browser.manage().deleteAllCookies();
    }

    private String search(String more) {
        return base + "/console/search?subject=" + subject + "&from=" + URLEncoder.encode(start.toString(), StandardCharsets.UTF_8)
                + more;
    }

    /** The page's rows as "request|time", top to bottom. */
    private static List<String> rows() {
        var out = new ArrayList<String>();
        for (WebElement row : browser.findElements(By.cssSelector("#results tbody tr"))) {
            out.add(row.findElement(By.className("record-link")).getText() + "|" + row.findElement(By.className("time")).getText());
        }
        return out;
    }

    private static void follow(String cssClass) {
        browser.findElement(By.cssSelector("#paging ." + cssClass)).click();
    }

    private static boolean has(String cssClass) {
        return !browser.findElements(By.cssSelector("#paging ." + cssClass)).isEmpty();
    }

    @Test
    void newestFirstPagedBothWaysWithEveryRecordOnce() {
        Browser.signIn(browser, search(""), "auditor");
        List<String> all = rows();
        assertEquals(DENIED + 1, all.size(), browser.getPageSource());
        assertTrue(browser.findElement(By.id("totals")).getText().contains("This search: " + (DENIED + 1) + " record(s)"),
                browser.findElement(By.id("totals")).getText());
        // Newest first: the times never rise down the page, and the oldest (the session's opening) is at the bottom.
        for (int i = 1; i < all.size(); i++) {
            assertTrue(time(all.get(i - 1)).compareTo(time(all.get(i))) >= 0, all.toString());
        }
        assertEquals("newest", new Select(browser.findElement(By.id("order"))).getFirstSelectedOption().getAttribute("value"));

        // The sort control: oldest first is the same records reversed.
        new Select(browser.findElement(By.id("order"))).selectByValue("oldest");
        browser.findElement(By.id("search-button")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("order=oldest"));
        var reversed = new ArrayList<>(all);
        Collections.reverse(reversed);
        assertEquals(reversed, rows());

        // Pages of 5, newest first: next, next to the end; then last and back with previous; first again.
        browser.get(search("&size=5"));
        assertEquals("5", new Select(browser.findElement(By.id("size"))).getFirstSelectedOption().getAttribute("value"));
        var forward = new ArrayList<>(rows());
        assertEquals(5, forward.size());
        assertFalse(has("previous-page") || has("first-page"), "the first page has nothing before it");
        while (has("next-page")) {
            follow("next-page");
            forward.addAll(rows());
        }
        assertEquals(all, forward, "the pages, followed forward, hold every record once in order");
        assertFalse(has("last-page"), "the last page has nothing after it");

        browser.get(search("&size=5&last=true"));
        var backward = new ArrayList<>(rows());
        assertEquals(all.subList(7, 12), backward, "the last page is a full page: the five oldest");
        while (has("previous-page")) {
            follow("previous-page");
            backward.addAll(0, rows());
        }
        assertEquals(all, backward, "the pages, followed back from the last, hold every record once in order");
        follow("next-page");
        follow("first-page");
        assertEquals(all.subList(0, 5), rows());
    }

    @Test
    void theStaffsOwnPageViewsAreLeftOutUnlessAskedFor() {
        Browser.signIn(browser, search(""), "auditor");
        browser.get(search(""));
        String auditor = base + "/console/search?subject=auditor&from=" + URLEncoder.encode(start.toString(), StandardCharsets.UTF_8);
        browser.get(auditor);
        // The sign-in (AUTHENTICATION) is there; the page views are not.
        assertTrue(text("results").contains("console/sign-in"), text("results"));
        assertEquals(0, staffReads(), text("results"));
        assertFalse(browser.findElement(By.id("staff-reads")).isSelected());
        browser.findElement(By.id("staff-reads")).click();
        browser.findElement(By.id("search-button")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("staffReads=true"));
        assertTrue(staffReads() >= 4, "the four page views at least: " + text("results"));
        assertTrue(browser.findElement(By.id("staff-reads")).isSelected(), "the toggle stays on");
        // Asking for the kind shows them too.
        browser.get(auditor + "&kind=AUDIT_READ");
        assertTrue(staffReads() >= 5, text("results"));
    }

    @Test
    void aBadDateShowsItsErrorWithNoResultsAndNoExports() {
        Browser.signIn(browser, base + "/console/search?subject=" + subject + "&from=yesterday-ish", "auditor");
        String error = browser.findElement(By.id("search-error")).getText();
        assertTrue(error.contains("'from'"), error);
        assertTrue(browser.findElements(By.id("results")).isEmpty(), "no results table");
        assertTrue(browser.findElements(By.id("export-csv")).isEmpty() && browser.findElements(By.id("export-jsonl")).isEmpty()
                && browser.findElements(By.id("export-ocsf")).isEmpty(), "no export buttons");
        assertTrue(browser.findElements(By.id("totals")).isEmpty(), "no totals");
        assertNotEquals("", browser.findElement(By.name("from")).getAttribute("value"), "the bad date stays in the form to fix");
    }

    @Test
    void datesAreReadAndTimesShownInTheZoneChosenOnThePageWhichIsRemembered() {
        Browser.signIn(browser, search(""), "auditor");
        try {
            assertEquals("UTC", text("zone"), "no zone chosen and none configured: UTC");
            assertTrue(text("zone-form").contains("cannot learn your browser's time zone"), text("zone-form"));
            // In UTC each time is shown once, under one heading.
            String heading = browser.findElement(By.cssSelector("#results thead th")).getText();
            assertEquals("time (UTC)", heading);
            var cells = browser.findElements(By.cssSelector("#results tbody td.time"));
            assertFalse(cells.isEmpty(), text("results"));
            for (WebElement cell : cells) {
                assertTrue(cell.findElements(By.className("local")).isEmpty(), cell.getText());
                assertEquals(cell.findElement(By.className("utc")).getText(), cell.getText(), "one time in the cell");
                Instant.parse(cell.getText().replace(' ', 'T'));
            }
            chooseZone("Asia/Kolkata");
            assertTrue(text("results").contains("time (Asia/Kolkata)"), text("results"));
            // Each time in the zone (UTC+05:30, no summer time) with UTC beside it.
            for (WebElement cell : browser.findElements(By.cssSelector("#results tbody td.time"))) {
                var local = java.time.LocalDateTime.parse(cell.findElement(By.className("local")).getText().replace(' ', 'T'));
                var utc = Instant.parse(cell.findElement(By.className("utc")).getText().replace(' ', 'T'));
                assertEquals(utc, local.atOffset(java.time.ZoneOffset.ofHoursMinutes(5, 30)).toInstant(), cell.getText());
            }
            // Typed local times are read in the zone: up to the minute before the first record there is nothing; read as
            // UTC the same words would reach five and a half hours later and take them all in.
            var kolkata = java.time.ZoneId.of("Asia/Kolkata");
            String before = java.time.format.DateTimeFormatter.ofPattern("dd.MM.yyyy HH:mm").format(start.minusSeconds(60).atZone(kolkata));
            String base = "/console/search?subject=" + subject;
            browser.get(this.base + base + "&to=" + URLEncoder.encode(before, StandardCharsets.UTF_8));
            assertEquals("Asia/Kolkata", text("zone"), "remembered: no zone in the address");
            assertEquals(0, rows().size(), text("totals"));
            browser.get(this.base + base + "&from=" + URLEncoder.encode(before, StandardCharsets.UTF_8));
            assertEquals(DENIED + 1, rows().size(), text("totals"));
            // A date alone ending the range takes its whole day in.
            String today = java.time.format.DateTimeFormatter.ofPattern("dd.MM.yyyy").format(Instant.now().atZone(kolkata));
            browser.get(this.base + base + "&from=" + URLEncoder.encode(before, StandardCharsets.UTF_8) + "&to=" + today);
            assertEquals(DENIED + 1, rows().size(), text("totals"));
            // Remembered across sign-ins.
            browser.manage().deleteAllCookies();
            Browser.signIn(browser, this.base + "/console/search", "auditor");
            assertEquals("Asia/Kolkata", text("zone"));
        } finally {
            browser.get(this.base + "/console/search");
            chooseZone("UTC");
        }
    }

    /** Chooses a zone on the search page and waits for the page shown in it. */
    private static void chooseZone(String zone) {
        new Select(browser.findElement(By.id("zone-choice"))).selectByValue(zone);
        browser.findElement(By.id("zone-save")).click();
        Browser.waiting(browser).withMessage(() -> "choosing " + zone + ": " + browser.getCurrentUrl() + "\n"
                + browser.findElement(By.tagName("body")).getText()).until(d -> !d.findElements(By.id("zone")).isEmpty()
                && d.findElement(By.id("zone")).getText().equals(zone));
        assertTrue(browser.getCurrentUrl().contains("tz=" + URLEncoder.encode(zone, StandardCharsets.UTF_8)), browser.getCurrentUrl());
    }

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** The rows on the page that are the staff's reads of the log: the console's page views. */
    private static long staffReads() {
        return browser.findElements(By.cssSelector("#results tbody tr")).stream()
                .filter(r -> r.getText().contains("AUDIT_READ") && r.getText().contains("console/search")).count();
    }

    private static String time(String row) {
        return row.substring(row.indexOf('|') + 1);
    }
}
