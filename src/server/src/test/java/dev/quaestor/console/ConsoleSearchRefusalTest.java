package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebDriver;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The search page refuses a parameter it does not take (a misspelt filter) or a value it cannot take (a kind or decision
 * no record has, an order, a size or a cursor out of what it takes, a range that ends before it starts) rather than
 * answer another question: 400, the search page with
 * the form as given and an error naming the field, the value and what it takes, no results, and the refusal on record
 * as {@code invalid}, never as a search done.
 */
@QuarkusTest
class ConsoleSearchRefusalTest {

    private static WebDriver browser;
    private static String cookies;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = Browser.start();
    }

    /** Signed in once, as the auditor; the pages are then read with the session's cookies. */
    @BeforeEach
    void signIn() {
        if (cookies == null) {
            Browser.signIn(browser, "http://127.0.0.1:" + RestAssured.port + "/console/search", "auditor");
            cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                    .collect(Collectors.joining("; "));
        }
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** The search page at {@code query}, its HTML with the entities the page's text uses read back. */
    private static Response search(String query) {
        return given().header("Cookie", cookies).redirects().follow(false).get("/console/search?" + query);
    }

    private static String text(Response r) {
        return r.body().asString().replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&");
    }

    private static List<String> recorded(String marker) {
        return AuditRow.list("subject = 'auditor' AND method = 'console/search' AND detail LIKE ?", "%" + marker + "%").stream()
                .map(r -> r.decision + "/" + r.outcome).toList();
    }

    private static void refused(String query, String marker, String... said) {
        Response r = search("subject=" + marker + "&" + query);
        String page = text(r);
        assertEquals(400, r.statusCode(), page);
        assertTrue(page.contains("<h1>Search the audit log</h1>"), "the search page's own layout: " + page);
        assertTrue(page.contains("id=\"search-error\""), page);
        String error = page.substring(page.indexOf("id=\"search-error\""));
        error = error.substring(0, error.indexOf("</div>"));
        for (String s : said) {
            assertTrue(error.contains(s), "'" + s + "' in: " + error);
        }
        assertTrue(page.contains("name=\"subject\" value=\"" + marker + "\""), "the form keeps what was given: " + page);
        assertFalse(page.contains("id=\"results\"") || page.contains("id=\"totals\"") || page.contains("id=\"export-csv\""),
                "no results, totals or exports: " + page);
        assertEquals(List.of("DENY/invalid"), recorded(marker), "on record as refused, never as a search done");
        String id = r.header("X-Request-Id");
        assertTrue(error.contains(id), "the page names the refusal's record: " + error);
    }

    private static String marker() {
        return "refusal-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void aKindOrDecisionNoRecordHasIsRefusedNamingTheOnesItTakes() {
        refused("kind=BOGUS", marker(), "'kind'", "\"BOGUS\"", "AUDIT_READ", "ATTEMPT_SUMMARY", "AUDIT_RETENTION");
        refused("decision=MAYBE", marker(), "'decision'", "\"MAYBE\"", "ALLOW, DENY, FILTER");
    }

    @Test
    void anOrderSizeOrCursorOutOfWhatItTakesIsRefused() {
        refused("order=sideways", marker(), "'order'", "\"sideways\"", "newest, oldest");
        refused("cursor=-1", marker(), "'cursor'", "\"-1\"", "a whole number from 0 up");
        refused("before=x", marker(), "'before'", "\"x\"", "a whole number from 0 up");
        refused("size=1000", marker(), "'size'", "\"1000\"", "from 1 to 500");
        refused("size=0", marker(), "'size'", "\"0\"", "from 1 to 500");
    }

    /** A misspelt filter would leave the search unfiltered: everyone's records shown as if the filter were asked. */
    @Test
    void aParameterItDoesNotTakeIsRefusedNamingItNotIgnored() {
        refused("subjet=alice", marker(), "\"subjet\" is not a parameter it takes", "subject", "uriPrefix", "staffReads");
    }

    /** A filter given twice would be searched by its first value only, the second dropped unseen. */
    @Test
    void aParameterGivenTwiceIsRefusedNotSearchedByItsFirstValue() {
        refused("subject=bob", marker(), "\"subject\" is given 2 times", "it takes one value");
    }

    /** The page reads ';' as a separator, as '&' (and a saved search is checked the same way). */
    @Test
    void aSemicolonSeparatesParametersAsAnAmpersandDoes() {
        String marker = marker();
        Response r = given().urlEncodingEnabled(false).header("Cookie", cookies).redirects().follow(false)
                .get("/console/search?subject=" + marker + ";subject=bob");
        assertEquals(400, r.statusCode(), text(r));
        assertTrue(text(r).contains("\"subject\" is given 2 times"), text(r));
        assertEquals(List.of("DENY/invalid"), recorded(marker));
    }

    @Test
    void aRangeThatEndsBeforeItStartsIsRefused() {
        refused("from=yesterday&to=2020-01-01", marker(), "'from' (yesterday", "is not before 'to' (2020-01-01");
    }

    /** A time the database cannot hold would fail the page as if the database had failed (503). */
    @Test
    void aTimeOutsideTheYearsARecordCanHaveIsRefusedNotADatabaseFailure() {
        refused("to=+999999999-12-31T23:59:59Z", marker(), "'to' is outside the years 0001 to 9999");
        refused("from=-999999d", marker(), "'from' is outside the years 0001 to 9999");
    }

    @Test
    void aBadDateIsRefusedAndOnRecordAsSuch() {
        refused("from=yesterday-ish", marker(), "'from'", "yesterday-ish", "2026-11-23");
    }

    /** A NUL character (%00) is refused, not trimmed away to search for what is left (or for everything). */
    @Test
    void aValueWithANulCharacterIsRefusedNotSearchedForWhatIsLeft() {
        String marker = marker();
        var raw = given().urlEncodingEnabled(false).header("Cookie", cookies).redirects().follow(false);
        Response r = raw.get("/console/search?subject=" + marker + "&uriPrefix=%00file");
        String page = text(r);
        assertEquals(400, r.statusCode(), page);
        assertTrue(page.contains("'uriPrefix' holds a NUL character (%00)") && page.contains("\"%00file\""), page);
        assertEquals(List.of("DENY/invalid"), recorded(marker), "on record as refused, never as a search done");
        for (String address : List.of("/console/who-read?uriPrefix=%00", "/console/timeline/subject?subject=%00" + marker,
                "/console/timeline/resource?uri=%00file:///docs/")) {
            Response other = given().urlEncodingEnabled(false).header("Cookie", cookies).redirects().follow(false).get(address);
            assertEquals(400, other.statusCode(), address + ": " + other.body().asString());
            assertTrue(text(other).contains("holds a NUL character"), address + ": " + text(other));
            assertTrue(other.header("X-Request-Id") != null, "the refusal is on record: " + address);
        }
    }

    @Test
    void valuesItTakesAreSearchedAndOnRecordAsDone() {
        String marker = marker();
        Response r = search("subject=" + marker + "&kind=AUDIT_READ&decision=DENY&order=oldest&size=5&cursor=0&from=-7d&to=today");
        assertEquals(200, r.statusCode(), r.body().asString());
        assertTrue(r.body().asString().contains("id=\"results\""), r.body().asString());
        assertFalse(r.body().asString().contains("id=\"search-error\""), r.body().asString());
        assertEquals(List.of("ALLOW/ok"), recorded(marker));
    }
}
