package dev.quaestor.console;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.review.Finding;
import dev.quaestor.review.Review;
import dev.quaestor.support.Browser;
import dev.quaestor.support.PastLog;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The daily review in Chromium, as a reviewer works it: a day the job never produced (since the log's first record) is
 * listed and produced from the console (the request and the production both on record); findings are marked reviewed
 * or escalated, each mark an ADMIN record in the reviewer's name, an escalation without a note is refused, nobody marks their own activity; a
 * finding's link opens the search of that person's records of that day.
 */
@QuarkusTest
class ConsoleReviewBrowserTest {

    private static WebDriver browser;
    private String base;

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

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
    void clean() {
        base = "http://127.0.0.1:" + RestAssured.port;
        browser.manage().deleteAllCookies();
    }

    @Test
    void aDayTheJobNeverProducedIsProducedFromTheConsoleOnRecord() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(10);
        // The log began before that day: a day before its first record is never listed.
        PastLog.write(ds, config, log, "review-began-" + System.nanoTime(), day.minusDays(1).atTime(12, 0).toInstant(ZoneOffset.UTC),
                "file:///docs/began/b");
        Browser.signIn(browser, base + "/console/reviews", "auditor");
        WebElement produce = browser.findElement(By.xpath("//table[@id='missing']//form[input[@name='day' and @value='" + day + "']]//button"));
        produce.click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("review-state")));
        assertTrue(browser.getCurrentUrl().endsWith("/console/reviews/" + day), browser.getCurrentUrl());
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'review/produce' AND subject = 'auditor' "
                    + "AND uri = 'review:" + day + "' AND outcome = 'ok'"), "the reviewer's request is on record");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'AUDIT_READ' AND method = 'review/produce' "
                    + "AND uri = 'review:" + day + "'"), "and the production, as the job's");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review WHERE review_day = DATE '" + day + "'"));
        }
        browser.get(base + "/console/reviews");
        assertTrue(browser.findElements(By.xpath("//table[@id='missing']//input[@value='" + day + "']")).isEmpty(), "no longer missing");
        // Today is not over: refused, and the refusal is on record.
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        browser.findElement(By.cssSelector("#produce-day input[name=day]")).sendKeys(today.toString());
        browser.findElement(By.cssSelector("#produce-day button")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        assertTrue(browser.getPageSource().contains("is not over yet"), browser.getPageSource());
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(0, count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'review/produce' "
                    + "AND uri = 'review:" + today + "'"), "nothing was asked for");
            assertTrue(count(c, "SELECT COUNT(*) FROM audit_entry WHERE method = 'review/produce' AND outcome = 'refused' "
                    + "AND detail LIKE 'review:" + today + "%'") >= 1, "the refusal is on record");
        }
    }

    @Test
    void findingsAreMarkedOnRecordAndLeadToThatDaysRecords() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(12);
        long[] ids = review(day, Finding.of(Finding.Category.DENIALS, "alice", 3, "3 request(s) denied"),
                Finding.of(Finding.Category.READ_SPIKE, "bob", 236, "236 distinct resources read"),
                Finding.of(Finding.Category.OFF_HOURS, "auditor", 7, "7 read(s) outside working hours"));
        Browser.signIn(browser, base + "/console/reviews/" + day, "auditor");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("findings")));
        assertTrue(row(ids[2]).getText().contains("your own activity"), row(ids[2]).getText());
        assertTrue(row(ids[2]).findElements(By.tagName("form")).isEmpty(), "no form to mark one's own activity");

        // An escalation needs a note: refused, on record, nothing stored.
        new Select(row(ids[0]).findElement(By.name("mark"))).selectByValue("escalated");
        row(ids[0]).findElement(By.tagName("button")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        assertTrue(browser.getPageSource().contains("an escalation needs a note"), browser.getPageSource());
        browser.get(base + "/console/reviews/" + day);
        new Select(row(ids[0]).findElement(By.name("mark"))).selectByValue("escalated");
        row(ids[0]).findElement(By.name("note")).sendKeys("to the data protection officer: three refusals on salaries");
        row(ids[0]).findElement(By.tagName("button")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("finding-" + ids[0]), "escalated by auditor"));
        new Select(row(ids[1]).findElement(By.name("mark"))).selectByValue("reviewed");
        row(ids[1]).findElement(By.tagName("button")).click();
        Browser.waiting(browser).until(ExpectedConditions.textToBePresentInElementLocated(By.id("finding-" + ids[1]), "reviewed by auditor"));

        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_finding f JOIN audit_entry a ON a.request_id = f.mark_request "
                    + "WHERE f.id = " + ids[0] + " AND f.mark = 'ESCALATED' AND f.marked_by = 'auditor' AND a.kind = 'ADMIN' "
                    + "AND a.method = 'review/mark' AND a.subject = 'auditor' AND a.outcome = 'ok' AND a.detail LIKE '%mark=ESCALATED%data protection officer%'"),
                    "the escalation is stored with its ADMIN record");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_finding WHERE id = " + ids[1] + " AND mark = 'REVIEWED' AND marked_by = 'auditor'"));
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_finding WHERE id = " + ids[2] + " AND mark IS NULL"));
            assertTrue(count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'review/mark' AND outcome = 'refused' "
                    + "AND detail LIKE '%finding " + ids[0] + ": an escalation needs a note%'") >= 1, "the refused mark is on record");
        }
        assertTrue(row(ids[1]).findElements(By.tagName("form")).isEmpty(), "a mark is final");

        // The spike's link: bob's reads of that day, oldest first.
        String href = row(ids[1]).findElement(By.className("records")).getAttribute("href");
        for (String part : new String[] {"subject=bob", "action=read", "kind=OUTCOME", "from=" + day, "to=" + day, "order=oldest"}) {
            assertTrue(href.contains(part), href);
        }
        row(ids[1]).findElement(By.className("records")).click();
        Browser.waiting(browser).until(ExpectedConditions.urlContains("/console/search"));
        assertEquals(day.toString(), browser.findElement(By.name("from")).getAttribute("value"));
        assertEquals("bob", browser.findElement(By.name("subject")).getAttribute("value"));
        assertTrue(browser.findElements(By.id("search-error")).isEmpty(), browser.getPageSource());
    }

    @Test
    void anEscalationTakesTheFindingsRecordsToACaseOnRecord() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(14);
        long caseId = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"Salary files\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        long[] ids = review(day, Finding.of(Finding.Category.DENIALS, "carol", 4, "4 request(s) denied"),
                Finding.of(Finding.Category.READ_SPIKE, "dave", 180, "180 distinct resources read"));
        Browser.signIn(browser, base + "/console/reviews/" + day, "auditor");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("findings")));

        // A case is chosen only to escalate: marking "reviewed" with a case is refused, on record, and nothing is stored.
        new Select(row(ids[1]).findElement(By.name("mark"))).selectByValue("reviewed");
        new Select(row(ids[1]).findElement(By.name("caseId"))).selectByValue(Long.toString(caseId));
        row(ids[1]).findElement(By.tagName("button")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        assertTrue(browser.getPageSource().contains("a case is chosen only to escalate"), browser.getPageSource());

        browser.get(base + "/console/reviews/" + day);
        new Select(row(ids[0]).findElement(By.name("mark"))).selectByValue("escalated");
        row(ids[0]).findElement(By.name("note")).sendKeys("four refusals on the salary folder");
        new Select(row(ids[0]).findElement(By.name("caseId"))).selectByValue(Long.toString(caseId));
        row(ids[0]).findElement(By.tagName("button")).click();
        Browser.waiting(browser).until(ExpectedConditions.urlContains("/console/cases/" + caseId));
        String page = browser.getPageSource();
        assertTrue(page.contains("Review of " + day + ": DENIALS of carol"), page);
        assertTrue(page.contains("Escalated from the review of " + day + ", finding " + ids[0]) && page.contains("four refusals"), page);

        String from = day.atStartOfDay(ZoneOffset.UTC).toInstant().toString();
        String to = day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant().toString();
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_finding WHERE id = " + ids[0] + " AND mark = 'ESCALATED'"));
            assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_case_search WHERE case_id = " + caseId
                    + " AND query LIKE 'subject=carol&decision=DENY&from=" + from.replace(":", "%3A") + "&to=" + to.replace(":", "%3A") + "'"),
                    "the finding's records, as a search of that day, are in the case");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'audit/cases/add-search' "
                    + "AND subject = 'auditor' AND outcome = 'ok' AND uri = '" + AuditCase.uriOf(caseId) + "'"), "the addition is on record");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM audit_entry WHERE kind = 'ADMIN' AND method = 'audit/cases/add-note' "
                    + "AND subject = 'auditor' AND outcome = 'ok' AND uri = '" + AuditCase.uriOf(caseId) + "'"), "the note is on record");
            assertEquals(1, count(c, "SELECT COUNT(*) FROM review_finding WHERE id = " + ids[1] + " AND mark IS NULL"),
                    "the refused mark stored nothing");
            assertTrue(count(c, "SELECT COUNT(*) FROM audit_entry WHERE method = 'review/mark' AND outcome = 'refused' "
                    + "AND detail LIKE '%finding " + ids[1] + ": case with REVIEWED%'") >= 1, "the refusal is on record");
        }
    }

    /** A verified, unsigned review of {@code day} holding these findings; their ids, in order. */
    private static long[] review(LocalDate day, Finding... findings) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var r = new Review();
            r.day = day;
            r.generatedAt = Instant.now();
            r.generatedBy = "test";
            r.deadline = Instant.now().plusSeconds(3600);
            r.integrityOk = true;
            r.integrity = "verified";
            r.digest = "0".repeat(64);
            for (Finding f : findings) {
                f.review = r;
                r.findings.add(f);
            }
            r.persist();
            Review.flush();
            return java.util.Arrays.stream(findings).mapToLong(f -> f.id).toArray();
        });
    }

    private WebElement row(long findingId) {
        return browser.findElement(By.id("finding-" + findingId));
    }

    private static long count(Connection c, String sql) throws Exception {
        try (var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
