package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No console page view on record as {@code ok} stands alone for a page the person did not get: one let in that finds
 * nothing to show has a second record under its request id, {@code not-found} with why. A value a page cannot take (a
 * review's day that is not a date, an export's format or search value, a timeline's or who-read's range, a request id no
 * record can have, a case history's cursor) is refused before anything is read: a console page naming the value and what is taken, on record
 * as {@code DENY invalid}, never as a view.
 */
@QuarkusTest
class ConsoleViewEndingTest {

    private static ConsoleSession auditor;

    @BeforeEach
    void signIn() {
        if (auditor == null) {
            auditor = ConsoleSession.signIn("auditor");
        }
    }

    private static String text(Response r) {
        return r.body().asString().replace("&#39;", "'").replace("&quot;", "\"").replace("&amp;", "&");
    }

    /** The records under the answer's request id, oldest first, as decision/outcome. */
    private static List<String> recorded(Response r) {
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record: " + r.headers());
        return rows(id).stream().map(a -> a.decision + "/" + a.outcome).toList();
    }

    private static List<AuditRow> rows(String requestId) {
        return AuditRow.list("request_id = ? ORDER BY id", requestId);
    }

    /** A console page with {@code status} that names its record and says each of {@code said}. */
    private static String page(Response r, int status, String... said) {
        String page = text(r);
        assertEquals(status, r.statusCode(), page);
        assertTrue(page.contains("<header>") && page.contains("<span>auditor</span>"), "a console page: " + page);
        assertTrue(page.contains("<code id=\"refusal-record\">" + r.header("X-Request-Id") + "</code>"), "names its record: " + page);
        for (String s : said) {
            assertTrue(page.contains(s), "'" + s + "' in: " + page);
        }
        return page;
    }

    /** 404, on record as let in, then not found with {@code why} after the view's detail, under the same request id. */
    private static void letInThenNotFound(Response r, String method, String why, String... said) {
        page(r, 404, said);
        assertEquals(List.of("ALLOW/ok", "ALLOW/not-found"), recorded(r));
        AuditRow second = rows(r.header("X-Request-Id")).get(1);
        assertEquals(method, second.method);
        assertEquals("auditor", second.subject);
        assertTrue(second.detail.contains(why), second.detail);
    }

    @Test
    void aReviewOrRevisionNotFoundIsOnRecordAsLetInThenNotFound() {
        letInThenNotFound(auditor.get("/console/reviews/2001-01-01"), "console/review", "day=2001-01-01; no review for 2001-01-01",
                "No review for 2001-01-01");
        letInThenNotFound(auditor.get("/console/policy/revisions/nope"), "console/policy/revision",
                "revision=nope; no stored revision nope", "No stored revision nope");
        letInThenNotFound(auditor.get("/console/policy/diff?from=x&to=y"), "console/policy/diff",
                "from=x to=y; neither 'from' (x) nor 'to' (y) is a stored revision", "Nothing to compare");
    }

    @Test
    void aRequestWithNoRecordIsOnRecordAsLetInThenNotFoundAndSoIsItsProof() {
        String rid = "no-such-request-" + UUID.randomUUID();
        Response r = auditor.get("/console/requests/" + rid);
        assertEquals(404, r.statusCode(), r.body().asString());
        List<AuditRow> records = AuditRow.list("method = 'console/request' AND detail LIKE ? ORDER BY id", "request=" + rid + "%");
        assertEquals(List.of("ALLOW/ok", "ALLOW/not-found"), records.stream().map(a -> a.decision + "/" + a.outcome).toList());
        assertEquals(records.get(0).requestId, records.get(1).requestId);
        assertTrue(records.get(1).detail.contains("no record in the log has this request id"), records.get(1).detail);
        assertEquals(records.get(0).requestId, r.header("X-Request-Id"), "the 404 names its record");
        assertTrue(text(r).contains("this look-up is on record as request <a class=\"mono\" href=\"/console/requests/"
                + records.get(0).requestId + "\">"), text(r));

        letInThenNotFound(auditor.get("/console/requests/" + rid + "/proof"), "console/request/proof",
                "no record has request id " + rid, "No proof file: no record has request id " + rid);
    }

    @Test
    void aDayThatIsNotADateIsRefusedOnRecordAsInvalid() {
        Response r = auditor.get("/console/reviews/yesterday-ish");
        page(r, 400, "'day' is not a date: \"yesterday-ish\"", "YYYY-MM-DD", "id=\"back\" href=\"/console/reviews\"");
        assertEquals(List.of("DENY/invalid"), recorded(r));
        AuditRow refused = rows(r.header("X-Request-Id")).get(0);
        assertEquals("console/review", refused.method);
        assertTrue(refused.detail.contains("day=yesterday-ish"), refused.detail);
        assertEquals(0, AuditRow.count("method = 'console/review' AND outcome = 'ok' AND detail = 'day=yesterday-ish'"),
                "never on record as a view");
    }

    @Test
    void anExportWithABadFormatIsRefusedOnRecordAsInvalidNamingTheFormatsItTakes() {
        String marker = "export-" + UUID.randomUUID().toString().substring(0, 8);
        Response r = auditor.get("/console/export?format=xml&subject=" + marker);
        String page = page(r, 400, "'format'", "\"xml\"", "jsonl, csv, ocsf");
        assertFalse(r.contentType().startsWith("text/plain"), r.contentType());
        assertTrue(page.contains("id=\"back\" href=\"/console/search?subject=" + marker), "back to the search: " + page);
        assertEquals(List.of("DENY/invalid"), recorded(r));
        assertEquals(List.of("DENY/invalid"), AuditRow.list("method = 'console/export' AND detail LIKE ?", "%" + marker + "%").stream()
                .map(a -> a.decision + "/" + a.outcome).toList(), "never on record as an export let in");

        page(auditor.get("/console/export?subject=" + marker), 400, "'format' is missing", "jsonl, csv, ocsf");
    }

    @Test
    void anExportWithABadSearchValueIsRefusedOnRecordAsInvalid() {
        String marker = "export-" + UUID.randomUUID().toString().substring(0, 8);
        Response r = auditor.get("/console/export?format=csv&kind=BOGUS&subject=" + marker);
        page(r, 400, "'kind'", "\"BOGUS\"", "AUDIT_READ");
        assertEquals(List.of("DENY/invalid"), recorded(r));
        assertTrue(rows(r.header("X-Request-Id")).get(0).detail.contains("'kind'"), "why, on record");
        Response range = auditor.get("/console/export?format=jsonl&from=yesterday&to=2020-01-01&subject=" + marker);
        page(range, 400, "'from' (yesterday", "is not before 'to' (2020-01-01");
        assertEquals(List.of("DENY/invalid", "DENY/invalid"), AuditRow.list("method = 'console/export' AND detail LIKE ? ORDER BY id",
                "%" + marker + "%").stream().map(a -> a.decision + "/" + a.outcome).toList());
    }

    /**
     * What leaves the console, an export or a bundle, takes only the parameters it knows: a misspelt filter would leave
     * it unfiltered, with everyone's records in it. Refused before anything is read, on record as invalid.
     */
    @Test
    void anExportOrBundleWithAParameterItDoesNotTakeIsRefusedNotMadeUnfiltered() {
        String marker = "typo-" + UUID.randomUUID().toString().substring(0, 8);
        Response export = auditor.get("/console/export?format=csv&subjet=" + marker);
        page(export, 400, "\"subjet\" is not a parameter it takes", "subject", "uriPrefix");
        assertEquals(List.of("DENY/invalid"), recorded(export));
        Response bundle = auditor.get("/console/bundle?request=" + marker);
        page(bundle, 400, "No bundle was made", "\"request\" is not a parameter it takes", "requestId");
        assertEquals(List.of("DENY/invalid"), recorded(bundle));
        // Given twice, a filter would be applied with its first value only, the second dropped unseen.
        Response twice = auditor.get("/console/export?format=csv&subject=" + marker + "&subject=other");
        page(twice, 400, "\"subject\" is given 2 times", "it takes one value");
        assertEquals(List.of("DENY/invalid"), recorded(twice));
        Response bundleTwice = auditor.get("/console/bundle?subject=" + marker + "&subject=other");
        page(bundleTwice, 400, "No bundle was made", "\"subject\" is given 2 times");
        assertEquals(List.of("DENY/invalid"), recorded(bundleTwice));
        assertTrue(rows(bundle.header("X-Request-Id")).get(0).detail.contains("request=" + marker), "what was asked, on record");
        assertEquals(200, auditor.get("/console/export?format=csv&subject=" + marker).statusCode(), "spelt right, it is made");
    }

    @Test
    void anExportOfValuesItTakesIsOnRecordAsLetInAndDone() {
        String marker = "export-" + UUID.randomUUID().toString().substring(0, 8);
        Response r = auditor.get("/console/export?format=csv&subject=" + marker);
        assertEquals(200, r.statusCode(), r.body().asString());
        assertEquals(List.of("console/export ALLOW/ok", "console/export/done ALLOW/ok"), rows(r.header("X-Request-Id")).stream()
                .map(a -> a.method + " " + a.decision + "/" + a.outcome).toList());
    }

    /** The page at {@code path} with {@code marker} in its detail: refused 400 with its own layout, naming its record. */
    private static void pageRefused(String path, String marker, String errorId, String method, String... said) {
        Response r = auditor.get(path);
        String page = text(r);
        assertEquals(400, r.statusCode(), page);
        String id = r.header("X-Request-Id");
        assertTrue(page.contains("id=\"" + errorId + "\""), page);
        String error = page.substring(page.indexOf("id=\"" + errorId + "\""));
        error = error.substring(0, error.indexOf("</div>"));
        for (String s : said) {
            assertTrue(error.contains(s), "'" + s + "' in: " + error);
        }
        assertTrue(error.contains("on record as request") && error.contains(id), "the page names the refusal's record: " + error);
        assertEquals(List.of("DENY/invalid"), AuditRow.list("method = ? AND detail LIKE ? ORDER BY id", method, "%" + marker + "%")
                .stream().map(a -> a.decision + "/" + a.outcome).toList(), "on record as refused, never as a view");
        assertEquals(List.of("DENY/invalid"), recorded(r));
    }

    @Test
    void aTimelineOrWhoReadRangeItCannotTakeIsRefusedOnRecordAsInvalid() {
        String marker = "range-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/timeline/resource?uri=file:///" + marker + "&from=31.02.2026", marker, "timeline-error",
                "console/timeline/resource", "'from' is not a date or time", "31.02.2026");
        pageRefused("/console/timeline/subject?subject=" + marker + "&from=yesterday&to=2020-01-01", marker, "timeline-error",
                "console/timeline/subject", "'from' (yesterday) is not before 'to' (2020-01-01)");
        String later = "later-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/timeline/subject?subject=" + later + "&from=2099-01-01", later, "timeline-error",
                "console/timeline/subject", "'from' (2099-01-01) is not before now, where an empty 'to' ends");
        pageRefused("/console/who-read?subject=" + marker + "&kind=BOGUS", marker, "who-read-error", "console/who-read", "'kind'",
                "\"BOGUS\"");
        String fine = "range-" + UUID.randomUUID().toString().substring(0, 8);
        Response r = auditor.get("/console/who-read?subject=" + fine + "&from=-7d");
        assertEquals(200, r.statusCode(), r.body().asString());
        assertEquals(List.of("ALLOW/ok"), recorded(r));
        Response t = auditor.get("/console/timeline/subject?subject=" + fine);
        assertEquals(200, t.statusCode(), t.body().asString());
        assertEquals(List.of("ALLOW/ok"), recorded(t));
    }

    /** A parameter given twice, or one a timeline or who-read does not take, is refused: not the first value shown. */
    @Test
    void aTimelineOrWhoReadParameterGivenTwiceOrMisspeltIsRefused() {
        String marker = "twice-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/timeline/subject?subject=" + marker + "&subject=bob", marker, "timeline-error",
                "console/timeline/subject", "\"subject\" is given 2 times", "it takes one value");
        String other = "twice-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/timeline/resource?uri=file:///" + other + "&from=-7d&from=-1d", other, "timeline-error",
                "console/timeline/resource", "\"from\" is given 2 times");
        String misspelt = "twice-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/timeline/subject?subject=" + misspelt + "&form=-1d", misspelt, "timeline-error",
                "console/timeline/subject", "\"form\" is not a parameter it takes", "from, refusals, subject, to, tz");
        String read = "twice-" + UUID.randomUUID().toString().substring(0, 8);
        pageRefused("/console/who-read?subject=" + read + "&uriPrefix=file:///a/&uriPrefix=file:///b/", read, "who-read-error",
                "console/who-read", "\"uriPrefix\" is given 2 times");
    }

    @Test
    void aRequestIdNoRecordCanHaveIsRefusedOnRecordAsInvalid() {
        String longId = "x".repeat(65);
        Response r = auditor.get("/console/requests/" + longId);
        page(r, 400, "'request' is not a request id", "up to 64 characters");
        assertEquals(List.of("DENY/invalid"), recorded(r));
        // A NUL, which no record's id holds and PostgreSQL cannot be asked for: refused the same, never a 503.
        Response nul = auditor.getAsWritten("/console/requests/a%00b");
        page(nul, 400, "'request' is not a request id", "holds a NUL character (%00)");
        assertEquals(List.of("DENY/invalid"), recorded(nul));
    }

    /** A revision name with a NUL is no stored revision: let in, then not found, never a 500 from the database. */
    @Test
    void aRevisionNameWithANulIsNotFound() {
        Response r = auditor.getAsWritten("/console/policy/revisions/a%00b");
        assertEquals(404, r.statusCode(), r.body().asString());
        assertEquals(List.of("ALLOW/ok", "ALLOW/not-found"), recorded(r));
        Response diff = auditor.getAsWritten("/console/policy/diff?from=a%00b&to=c");
        assertEquals(404, diff.statusCode(), diff.body().asString());
    }

    @Test
    void aCaseHistoryCursorThatIsNotOneIsRefusedAsInvalidNotAsAMissingCase() {
        long id = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"Cursor case\",\"description\":\"a mistyped cursor\",\"members\":[]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        Response r = auditor.get("/console/cases/" + id + "?historyBefore=soon");
        page(r, 400, "'before' is not a cursor of the case's history: soon", "id=\"back\" href=\"/console/cases/" + id + "\"");
        assertEquals(List.of("DENY/invalid"), recorded(r));
        assertEquals(dev.quaestor.cases.AuditCase.uriOf(id), rows(r.header("X-Request-Id")).get(0).uri, "in the case's history");
    }
}
