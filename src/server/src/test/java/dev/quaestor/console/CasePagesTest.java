package dev.quaestor.console;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cases pages in Chromium: a member lists their cases and opens one, and sees its requests with their record
 * counts, its search with its count, its hold and where its release stands, its notes and its history; someone who
 * is not a member is told there is no such case, and each view is on record under the case: allowed, or refused.
 */
@QuarkusTest
class CasePagesTest {

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

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static List<String> cells(String table, String cssClass) {
        return browser.findElements(By.cssSelector("#" + table + " td." + cssClass)).stream().map(WebElement::getText).toList();
    }

    @Test
    void aMemberSeesTheCaseWithItsCountsHoldsAndHistoryAndOthersDoNot() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        String rid = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200).extract().header("X-Request-Id");
        long id = as("auditor").body("{\"title\":\"Console case\",\"description\":\"seen in the browser\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        as("auditor").body("{\"requestId\":\"" + rid + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(200);
        as("auditor").body("{\"name\":\"that read\",\"query\":\"subject=alice&uriPrefix=file:///docs/trials/onco-734/summary.md\"}")
                .post("/audit/cases/" + id + "/searches").then().statusCode(200);
        as("auditor").body("{\"text\":\"First look.\"}").post("/audit/cases/" + id + "/notes").then().statusCode(200);
        long hold = as("auditor").body("{\"scope\":\"CASE\",\"from\":\"2026-01-01T00:00:00Z\",\"reason\":\"keep it\"}")
                .post("/audit/cases/" + id + "/holds").then().statusCode(201).extract().jsonPath().getLong("id");
        as("auditor").body("{\"reason\":\"done\"}").post("/audit/cases/" + id + "/holds/" + hold + "/release-request").then().statusCode(200);

        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/cases", "auditor2");
        assertTrue(browser.findElement(By.id("cases")).getText().contains("Console case"), browser.getPageSource());
        browser.findElement(By.linkText(Long.toString(id))).click();
        Browser.waiting(browser).until(d -> d.getTitle().contains("Case " + id));
        assertEquals(List.of("2"), cells("requests", "count"), "the read's DECISION and OUTCOME");
        long matched = AuditRow.list("subject = 'alice' AND uri LIKE 'file:///docs/trials/onco-734/summary.md%'").size();
        assertEquals(List.of(Long.toString(matched)), cells("searches", "count"));
        assertEquals(List.of("release asked"), cells("holds", "state"));
        assertTrue(browser.findElement(By.id("members")).getText().contains("auditor2"));
        assertTrue(browser.getPageSource().contains("First look."));
        // Every time on the page reads one way, in UTC to the second: the hold's start as given, the case's opening, the
        // note's and the history's times (a record's own words, such as the hold's detail, stay as recorded).
        String seconds = "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ";
        assertEquals(List.of("2026-01-01 00:00:00Z"), browser.findElements(By.cssSelector("#holds tbody td:nth-child(3)")).stream()
                .map(WebElement::getText).toList());
        String text = browser.findElement(By.tagName("main")).getText();
        assertTrue(Pattern.compile("opened\\s+" + seconds + " by auditor").matcher(text).find(), text);
        assertTrue(Pattern.compile("note \\d+, auditor, " + seconds).matcher(text).find(), text);
        var historyTimes = browser.findElements(By.cssSelector("#history tbody td:first-child")).stream().map(WebElement::getText).toList();
        assertTrue(!historyTimes.isEmpty() && historyTimes.stream().allMatch(t -> t.matches(seconds)), historyTimes.toString());
        String history = browser.findElement(By.id("history")).getText();
        for (String m : List.of("audit/cases/create", "audit/cases/add-request", "audit/cases/add-search", "audit/cases/add-note",
                "audit/cases/hold/put", "audit/cases/hold/ask-release")) {
            assertTrue(history.contains(m), m + " in " + history);
        }
        // Newest first: this very view is the first row (views are in a case's history too), then the last change; the
        // page gives the case's seal key, and the note shows its HMAC under it, which its record holds.
        var newest = browser.findElements(By.cssSelector("#history tbody tr td:nth-child(3)")).stream().limit(2)
                .map(org.openqa.selenium.WebElement::getText).toList();
        assertEquals(List.of("console/case", "audit/cases/hold/ask-release"), newest);
        String noteRecord = AuditRow.list("method = 'audit/cases/add-note' AND uri = ?", "quaestor:case/" + id + "/").get(0).detail;
        String shown = browser.findElement(By.cssSelector(".note-entry .mono")).getText();
        String hmac = dev.quaestor.support.Hmac.sha256(browser.findElement(By.id("seal-key")).getText().strip(), "First look.");
        assertEquals("hmac-sha256 " + hmac, shown);
        assertTrue(noteRecord.endsWith("; text hmac-sha256=" + hmac), shown + " / " + noteRecord);
        var views = AuditRow.list("subject = 'auditor2' AND method = 'console/case' AND detail = ?", "case=" + id);
        assertEquals(1, views.size(), "the view is on record");
        assertEquals(AuditCase.uriOf(id), views.get(0).uri, "under the case, so that it is in the case's history");
        assertEquals("ALLOW", views.get(0).decision);

        browser.manage().deleteAllCookies();
        Browser.signIn(browser, base + "/console/cases/" + id, "auditor3");
        assertTrue(browser.findElement(By.id("absent")).getText().contains("no case " + id), browser.getPageSource());
        // The refused view is on record as refused, under the case, and nothing says it was allowed.
        var refused = AuditRow.list("subject = 'auditor3' AND method = 'console/case' AND (uri = ? OR detail = ?) ORDER BY id",
                AuditCase.uriOf(id), "case=" + id);
        assertEquals(1, refused.size(), refused.toString());
        assertEquals(List.of("DENY", "not-found", AuditCase.uriOf(id)), List.of(refused.get(0).decision, refused.get(0).outcome,
                refused.get(0).uri), refused.toString());
        browser.get(base + "/console/cases");
        assertTrue(!browser.findElement(By.id("cases")).getText().contains("Console case"));
        browser.manage().deleteAllCookies();
    }

    @Test
    void theCaseListComesFiftyAPageWithALinkToOlderOnes() {
        // auditor2 a member of more cases than a page lists.
        while (as("auditor2").get("/audit/cases").then().statusCode(200).extract().jsonPath().getBoolean("more") == false) {
            as("auditor").body("{\"title\":\"Listed case\",\"members\":[\"auditor2\"]}").post("/audit/cases").then().statusCode(201);
        }
        String before = as("auditor2").get("/audit/cases").then().extract().jsonPath().getString("before");
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/cases", "auditor2");
        assertEquals(dev.quaestor.cases.Cases.PAGE, browser.findElements(By.cssSelector("#cases tbody tr")).size());
        browser.findElement(By.id("older-cases")).click();
        Browser.waiting(browser).until(d -> d.getCurrentUrl().endsWith("/console/cases?before=" + before));
        assertTrue(!browser.findElements(By.cssSelector("#cases tbody tr")).isEmpty(), browser.getPageSource());
        assertEquals(1, AuditRow.list("subject = 'auditor2' AND method = 'console/cases' AND detail = ?", "before case " + before).size());

        browser.get(base + "/console/cases?before=soon");
        assertTrue(browser.getPageSource().contains("&#39;before&#39; is not a cursor of the case list")
                || browser.getPageSource().contains("'before' is not a cursor of the case list"), browser.getPageSource());
        var refused = AuditRow.list("subject = 'auditor2' AND method = 'console/cases' AND decision = 'DENY' ORDER BY id DESC");
        assertTrue(!refused.isEmpty() && refused.get(0).outcome.equals("invalid")
                && refused.get(0).detail.equals("'before' is not a cursor of the case list: soon"), refused.toString());
        browser.manage().deleteAllCookies();
    }
}
