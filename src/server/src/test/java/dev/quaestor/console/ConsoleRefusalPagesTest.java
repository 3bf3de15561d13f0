package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A console page that is refused, or finds nothing to show, is a console page: the menu and who is signed in, what
 * happened, the request id it is on record under, and a link back to the request, search, case, reviews or policy it
 * was about. An evidence bundle asked for by an empty request id is refused as such, never made of every record.
 */
@QuarkusTest
class ConsoleRefusalPagesTest {

    private static WebDriver browser;
    private static String cookies;
    private static String csrf;

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
    void signIn() {
        if (cookies == null) {
            Browser.signIn(browser, "http://127.0.0.1:" + RestAssured.port + "/console/search", "auditor");
            cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                    .collect(Collectors.joining("; "));
            csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");
        }
    }

    private static Response get(String path) {
        return given().header("Cookie", cookies).redirects().follow(false).get(path);
    }

    /** The page is the console's: its menu, the message, the request id on record, and a link back to {@code back}. */
    private static String consolePage(Response r, int status, String back, String... said) {
        String page = r.body().asString().replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&");
        assertEquals(status, r.statusCode(), page);
        assertTrue(page.contains("<header>") && page.contains("href=\"/console/search\">Search</a>"), "the console's menu: " + page);
        assertTrue(page.contains("<span>auditor</span>"), "who is signed in: " + page);
        String id = r.header("X-Request-Id");
        assertTrue(id != null && page.contains("<code id=\"refusal-record\">" + id + "</code>"), "the request id on record: " + page);
        assertEquals(1, AuditRow.count("request_id = ?", id) > 0 ? 1 : 0, "the id names a record");
        assertTrue(page.contains("id=\"back\" href=\"" + back + "\""), "a link back to " + back + ": " + page);
        for (String s : said) {
            assertTrue(page.contains(s), "'" + s + "' in: " + page);
        }
        return id;
    }

    @Test
    void aBundleOfARequestWithNoRecordIsAConsolePageLinkingBackToTheRequest() {
        String rid = "01a2323b-0000-7000-8000-000000000000";
        consolePage(get("/console/bundle?requestId=" + rid), 404, "/console/requests/" + rid,
                "No bundle was made: no record has request id " + rid);
    }

    @Test
    void aBundleOfAnEmptyRequestIdIsRefusedAsEmptyAndNothingIsMade() {
        long made = AuditRow.count("method = 'audit/bundle/made'");
        String id = consolePage(get("/console/bundle?requestId="), 400, "/console/search", "the request id is empty");
        assertEquals(List.of("DENY/invalid"), AuditRow.list("request_id = ?", id).stream().map(r -> r.decision + "/" + r.outcome).toList());
        assertEquals(made, AuditRow.count("method = 'audit/bundle/made'"), "no bundle was made, nor refused as too big: nothing was read");
        consolePage(given().header("Cookie", cookies).queryParam("requestId", " ").get("/console/bundle"), 400, "/console/search",
                "the request id is empty");
    }

    @Test
    void aMissingReviewOrRevisionIsAConsolePageLinkingBack() {
        consolePage(get("/console/reviews/2001-01-01"), 404, "/console/reviews", "No review for 2001-01-01");
        consolePage(get("/console/policy/diff?from=x&to=y"), 404, "/console/policy",
                "Nothing to compare: neither 'from' (x) nor 'to' (y) is a stored revision");
        consolePage(get("/console/policy/revisions/nope"), 404, "/console/policy", "No stored revision nope");
    }

    @Test
    void aCaseFormRefusedLinksBackToTheCase() {
        long id = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"Typo case\",\"description\":\"a mistyped request id\",\"members\":[]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        Response r = given().header("Cookie", cookies).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParam("csrf", csrf).formParam("requestId", "not-a-request").post("/console/cases/" + id + "/requests");
        // The log holds no request "not-a-request": the addition is refused as invalid, once it is on record.
        String rid = consolePage(r, 400, "/console/cases/" + id, "Refused",
                "the audit log holds no record of request not-a-request");
        assertEquals(List.of("ALLOW/ok/added request not-a-request", "ALLOW/invalid/added request not-a-request; not stored: the audit"
                + " log holds no record of request not-a-request"), AuditRow.list("request_id = ? AND method = 'audit/cases/add-request'"
                + " ORDER BY id", rid).stream().map(a -> a.decision + "/" + a.outcome + "/" + a.detail).toList());
    }
}
