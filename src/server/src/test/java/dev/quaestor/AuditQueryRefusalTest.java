package dev.quaestor;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The auditor API takes its query parameters only as they are documented: an unknown parameter, a kind or decision
 * no record has, a limit that is not a whole number from 1 to 1000, a time or cursor that cannot be read, an export
 * format it does not write, a range that ends before it starts, a value with a NUL character (which PostgreSQL's text
 * cannot hold) are each answered 400 with a JSON error naming the parameter, the value and what is accepted, and each such
 * call is on record as an {@code AUDIT_READ} {@code DENY} with outcome {@code invalid} (never {@code ok}), as is a facts
 * window that cannot be read, or any query parameter given to an evidence bundle, or a NUL in its body. A proof,
 * checkpoint or consistency proof that does not exist is looked for only once the call is on record as let in
 * ({@code ok}), and a second record under its request id then says it was {@code not-found}.
 */
@QuarkusTest
class AuditQueryRefusalTest {

    private final String auditor = TestIssuer.tokenFor("auditor");

    private Response get(String token, String pathAndQuery) {
        return given().header("Authorization", "Bearer " + token).urlEncodingEnabled(false).get(pathAndQuery);
    }

    /** The call's one record, by the request id its answer carries. */
    private static AuditRow recordOf(Response r) {
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record: " + r.asString());
        List<AuditRow> rows = AuditRow.list("request_id = ?", id);
        assertEquals(1, rows.size(), "one record of the call");
        assertEquals("AUDIT_READ", rows.get(0).kind);
        return rows.get(0);
    }

    /** 400 naming {@code parameter}, on record as invalid with why; returns the answer's JSON for further checks. */
    private io.restassured.path.json.JsonPath refused(String pathAndQuery, String method, String parameter) {
        return refusal(pathAndQuery, method, parameter).jsonPath();
    }

    private Response refusal(String pathAndQuery, String method, String parameter) {
        Response r = get(auditor, pathAndQuery);
        assertEquals(400, r.statusCode(), pathAndQuery + ": " + r.asString());
        var body = r.jsonPath();
        assertEquals(parameter, body.getString("parameter"), pathAndQuery + ": " + r.asString());
        assertNotNull(body.getString("accepted"), r.asString());
        AuditRow row = recordOf(r);
        assertEquals(method, row.method);
        assertEquals("DENY", row.decision, pathAndQuery);
        assertEquals("invalid", row.outcome, pathAndQuery);
        assertTrue(row.detail.contains(body.getString("error")), "why, in the record: " + row.detail);
        return r;
    }

    @Test
    void aKindOrDecisionNoRecordHasIsRefusedNamingWhatIsAccepted() {
        for (String[] c : new String[][] {{"kind", "BOGUS"}, {"kind", "outcome"}, {"decision", "deny"}, {"decision", "MAYBE"}}) {
            var body = refused("/audit/search?" + c[0] + "=" + c[1], "audit/search", c[0]);
            assertEquals(c[1], body.getString("value"));
            assertTrue(body.getString("error").contains("'" + c[1] + "'"), body.getString("error"));
            assertTrue(body.getString("accepted").contains(c[0].equals("kind") ? "OUTCOME" : "DENY"), body.getString("accepted"));
        }
        // The names as written still filter.
        get(auditor, "/audit/search?kind=OUTCOME&decision=DENY&limit=1").then().statusCode(200);
    }

    @Test
    void anUnknownOrRepeatedParameterIsRefusedNotIgnored() {
        long last = AuditRow.first("1=1 ORDER BY id DESC LIMIT 1").id;
        var body = refused("/audit/search?subjct=alice", "audit/search", "subjct");
        assertTrue(body.getString("accepted").contains("subject"), body.getString("accepted"));
        assertTrue(body.getString("error").contains("'subjct'"), body.getString("error"));
        assertEquals(1, AuditRow.count("id > ? AND method = 'audit/search'", last), "one record of the search, not an ok one too");

        refused("/audit/search?kind=OUTCOME&kind=DENY", "audit/search", "kind");
        assertTrue(refused("/audit/export?form=2026-11-01T00:00:00Z", "audit/export", "form").getString("accepted").contains("from"));
        refused("/audit/proof?requestid=x", "audit/proof", "requestid");
        refused("/audit/verify?full=true", "audit/verify", "full");
        refused("/audit/hash?field=ip&value=1.2.3.4&hashed=true", "audit/hash", "hashed");
    }

    @Test
    void anEvidenceBundleTakesNoQueryParameterAndMakesNoBundleWithOne() {
        String title = "CASE-Q secret title";
        for (String query : List.of("forcase=x", "format=zip", "requestIds=a&requestIds=b")) {
            Response r = given().header("Authorization", "Bearer " + auditor).contentType("application/json").urlEncodingEnabled(false)
                    .body("{\"requestIds\":[\"no-such-request\"],\"forCase\":\"" + title + "\"}").post("/audit/bundle?" + query);
            assertEquals(400, r.statusCode(), query + ": " + r.asString());
            var body = r.jsonPath();
            String parameter = query.substring(0, query.indexOf('='));
            assertEquals(parameter, body.getString("parameter"), r.asString());
            assertEquals("none", body.getString("accepted"), r.asString());
            assertTrue(body.getString("error").contains("'" + parameter + "'"), body.getString("error"));
            AuditRow row = recordOf(r); // the one record under its id: no bundle was begun
            assertEquals("audit/bundle", row.method);
            assertEquals("DENY", row.decision);
            assertEquals("invalid", row.outcome);
            assertTrue(row.detail.contains(body.getString("error")), "why, in the record: " + row.detail);
            assertTrue(!row.detail.contains(title), "the case is named on record only sealed, as by any bundle call: " + row.detail);
        }
        Response bob = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("bob")).contentType("application/json")
                .body("{\"requestIds\":[\"x\"]}").post("/audit/bundle?forcase=x");
        assertEquals(403, bob.statusCode(), bob.asString());
        assertEquals("forbidden",
                AuditRow.first("kind = 'AUDIT_READ' AND subject = 'bob' AND method = 'audit/bundle' ORDER BY id DESC").outcome);
    }

    /** A NUL in a string of the body cannot be on record or looked up: refused naming where it is, before anything is read. */
    @Test
    void anEvidenceBundleWhoseBodyHoldsANulIsRefusedNamingTheFieldNotAServerError() {
        for (String[] c : new String[][] {{"{\"requestIds\":[\"a\\u0000b\"]}", "requestIds[0]"},
                {"{\"search\":{\"subject\":\"\\u0000alice\"}}", "search.subject"},
                {"{\"requestIds\":[\"x\"],\"forCase\":\"CASE\\u0000\"}", "forCase"}}) {
            Response r = given().header("Authorization", "Bearer " + auditor).contentType("application/json").body(c[0])
                    .post("/audit/bundle");
            assertEquals(400, r.statusCode(), c[0] + ": " + r.asString());
            assertEquals(c[1], r.jsonPath().getString("field"), r.asString());
            assertTrue(r.jsonPath().getString("error").contains("'" + c[1] + "' holds a NUL character"), r.asString());
            AuditRow row = recordOf(r); // the one record under its id: nothing was read
            assertEquals("audit/bundle", row.method);
            assertEquals("DENY", row.decision, c[0]);
            assertEquals("invalid", row.outcome, c[0]);
            assertTrue(row.detail.contains(r.jsonPath().getString("error")), "why, in the record: " + row.detail);
        }
    }

    /** A call let in answered 200: its answer names the call's record, on record as let in ({@code ok}) under that id. */
    static void namesItsRecord(Response r, String method) {
        assertEquals(200, r.statusCode(), method + ": " + r.asString());
        String id = r.header("X-Request-Id");
        assertNotNull(id, method + ": the answer names its record");
        AuditRow row = AuditRow.list("request_id = ? ORDER BY id", id).get(0);
        assertEquals("AUDIT_READ", row.kind);
        assertEquals(method, row.method);
        assertEquals("ALLOW", row.decision);
        assertEquals("ok", row.outcome);
    }

    @Test
    void everyAnswerOfACallLetInNamesItsRecord() {
        namesItsRecord(get(auditor, "/audit/search?limit=1"), "audit/search");
        namesItsRecord(get(auditor, "/audit/hash?field=ip&value=1.2.3.4"), "audit/hash");
        namesItsRecord(get(auditor, "/audit/facts?since=1d"), "audit/facts");
        namesItsRecord(get(auditor, "/audit/verify"), "audit/verify");
        namesItsRecord(get(auditor, "/audit/export?from=2999-01-01T00:00:00Z"), "audit/export");
    }

    /** An export's answer names its record, which names only the parameters given, each value cut as refusals quote it. */
    @Test
    void anExportNamesItsRecordWhichNamesOnlyTheParametersGiven() {
        Response r = get(auditor, "/audit/export?format=csv&from=2999-01-01T00:00:00Z");
        assertEquals(200, r.statusCode(), r.asString());
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record");
        AuditRow row = AuditRow.list("request_id = ? ORDER BY id", id).get(0);
        assertEquals("audit/export", row.method);
        assertEquals("ok", row.outcome);
        assertEquals("from=2999-01-01T00:00:00Z format=csv", row.detail);

        String huge = "x".repeat(3000);
        String detail = recordOf(refusal("/audit/export?to=" + huge, "audit/export", "to")).detail;
        assertTrue(detail.startsWith("to=" + "x".repeat(64) + "… (3000 characters);"), detail);
        assertTrue(!detail.contains("from=") && !detail.contains("null"), detail);
        detail = recordOf(refusal("/audit/checkpoint?size=1", "audit/checkpoint", "log")).detail;
        assertTrue(detail.startsWith("size=1;") && !detail.contains("null"), detail);
    }

    /** A range that ends before it starts is refused, by the search and the export alike; one of no length holds nothing. */
    @Test
    void aRangeThatEndsBeforeItStartsIsRefusedNamingBoth() {
        for (String call : List.of("/audit/search", "/audit/export")) {
            var body = refused(call + "?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", call.substring(1), "from");
            assertEquals("2026-11-02T00:00:00Z", body.getString("value"));
            assertTrue(body.getString("error").contains("'from' (2026-11-02T00:00:00Z) is after 'to' (2026-11-01T00:00:00Z)"),
                    body.getString("error"));
            assertTrue(body.getString("accepted").contains("'to'"), body.getString("accepted"));
        }
        assertEquals(0, get(auditor, "/audit/search?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z").then().statusCode(200)
                .extract().jsonPath().getList("records").size());
        get(auditor, "/audit/export?format=csv&from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z").then().statusCode(200);
    }

    @Test
    void aLimitThatIsNotAWholeNumberFrom1To1000IsRefusedAndRecorded() {
        for (String limit : List.of("abc", "1.5", "99999999999", "-1", "0", "1001")) {
            var body = refused("/audit/search?limit=" + limit, "audit/search", "limit");
            assertEquals(limit, body.getString("value"));
            assertTrue(body.getString("accepted").contains("from 1 to 1000"), body.getString("accepted"));
        }
        String huge = "9".repeat(3000);
        Response r = refusal("/audit/search?limit=" + huge, "audit/search", "limit");
        String value = r.jsonPath().getString("value");
        assertTrue(value.length() < 100 && value.endsWith("(3000 characters)"), "the value quoted cut: " + value);
        String detail = recordOf(r).detail;
        assertTrue(detail.length() < 400, "the record keeps no huge input: " + detail.length());

        get(auditor, "/audit/search?limit=1000").then().statusCode(200);
        assertEquals(1, get(auditor, "/audit/search?limit=1").then().statusCode(200).extract().jsonPath().getList("records").size());
    }

    @Test
    void aCallThatFailsValidationIsNeverOnRecordAsOk() {
        refused("/audit/search?from=yesterday", "audit/search", "from");
        refused("/audit/search?cursor=xyz", "audit/search", "cursor");
        refused("/audit/export?from=garbage", "audit/export", "from");
        refused("/audit/proof", "audit/proof", "requestId");
        refused("/audit/checkpoint?log=x&size=abc", "audit/checkpoint", "size");
        refused("/audit/consistency?log=x&from=1&to=1.5", "audit/consistency", "to");
        assertTrue(refused("/audit/consistency?log=x&from=17&to=2", "audit/consistency", "from").getString("error")
                .contains("'from' (17) is larger than 'to' (2)"));
        refused("/audit/hash?field=ip", "audit/hash", "value");
        // An empty value is not "no filter": a script's unset variable would have asked for everyone's records.
        assertTrue(refused("/audit/search?subject=", "audit/search", "subject").getString("accepted").startsWith("a value"));
        // A field no record has: before, answered 200 as "not hashed", as though it were one.
        assertTrue(refused("/audit/hash?field=nope&value=x", "audit/hash", "field").getString("error").startsWith("field must be one of"));
    }

    @Test
    void aValueWithANulCharacterIsRefusedNotAServerError() {
        for (String[] c : new String[][] {{"/audit/search?subject=%00alice", "audit/search", "subject"},
                {"/audit/search?uriPrefix=file:///docs/%00", "audit/search", "uriPrefix"},
                {"/audit/proof?requestId=a%00b", "audit/proof", "requestId"},
                {"/audit/checkpoint?log=v%00m&size=16", "audit/checkpoint", "log"},
                {"/audit/consistency?log=%00&from=1&to=2", "audit/consistency", "log"}}) {
            Response r = get(auditor, c[0]);
            assertEquals(400, r.statusCode(), c[0] + ": " + r.asString());
            assertEquals(c[2], r.jsonPath().getString("parameter"), r.asString());
            assertTrue(r.jsonPath().getString("accepted").contains("without a NUL character"), r.asString());
            AuditRow row = recordOf(r);
            assertEquals(c[1], row.method);
            assertEquals("DENY", row.decision, c[0]);
            assertEquals("invalid", row.outcome, c[0]);
            assertTrue(row.detail.contains("without a NUL character"), "why, in the record: " + row.detail);
        }
    }

    @Test
    void aProofCheckpointOrConsistencyProofNotFoundIsOnRecordAsLetInThenNotFound() {
        for (String call : List.of("/audit/proof?requestId=nonsense-" + System.nanoTime(), "/audit/checkpoint?log=none&size=1",
                "/audit/consistency?log=none&from=1&to=2")) {
            Response r = get(auditor, call);
            assertEquals(404, r.statusCode(), call + ": " + r.asString());
            List<AuditRow> rows = letInThenEnded(r, call.substring(1, call.indexOf('?')));
            assertEquals("not-found", rows.get(1).outcome, call);
            assertTrue(rows.get(1).detail.contains(r.jsonPath().getString("error")), rows.get(1).detail);
        }
    }

    /**
     * The call's two records, by the request id its answer carries: let in ({@code ALLOW} {@code ok}, committed before
     * anything was looked up), then how it ended ({@code ALLOW}, never {@code ok}).
     */
    static List<AuditRow> letInThenEnded(Response r, String method) {
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its records: " + r.asString());
        List<AuditRow> rows = AuditRow.list("request_id = ? ORDER BY id", id);
        assertEquals(2, rows.size(), "let in, then how it ended: " + rows);
        for (AuditRow row : rows) {
            assertEquals("AUDIT_READ", row.kind);
            assertEquals(method, row.method);
            assertEquals("ALLOW", row.decision);
        }
        assertEquals("ok", rows.get(0).outcome, "on record as let in first");
        assertTrue(rows.get(0).id < rows.get(1).id);
        assertTrue(!"ok".equals(rows.get(1).outcome), rows.get(1).toString());
        return rows;
    }

    /**
     * A time no record can have (outside the years 0001 to 9999) is the caller's mistake: refused 400 naming it, not
     * passed to the database, which cannot hold it and would fail the read as if it had failed (503).
     */
    @Test
    void aTimeOutsideTheYearsARecordCanHaveIsRefusedNotADatabaseFailure() {
        for (String call : List.of("/audit/search", "/audit/export")) {
            var late = refused(call + "?to=%2B999999999-12-31T23:59:59Z", call.substring(1), "to");
            assertTrue(late.getString("accepted").contains("the years 0001 to 9999"), late.prettify());
            refused(call + "?from=-999999999-01-01T00:00:00Z", call.substring(1), "from");
            refused(call + "?from=%2B10000-01-01T00:00:00Z", call.substring(1), "from");
        }
        refused("/audit/facts?from=2026-11-01T00:00:00Z&to=%2B999999999-12-31T23:59:59Z", "audit/facts", "to");
        refused("/audit/facts?since=999999999999999d", "audit/facts", "since");
        get(auditor, "/audit/search?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59Z").then().statusCode(200);
    }

    @Test
    void aFactsWindowThatCannotBeReadOrAnUnknownParameterIsOnRecordAsInvalid() {
        Response r = get(auditor, "/audit/facts?since=yesterday");
        assertEquals(400, r.statusCode(), r.asString());
        AuditRow row = recordOf(r);
        assertEquals("audit/facts", row.method);
        assertEquals("DENY", row.decision);
        assertEquals("invalid", row.outcome);
        assertTrue(row.detail.contains(r.jsonPath().getString("error")), row.detail);
        assertTrue(refused("/audit/facts?sinse=30d", "audit/facts", "sinse").getString("accepted").contains("since"));
        // Each refusal names the parameter at fault, what was given and what it takes, as the other calls' do.
        var since = refused("/audit/facts?since=yesterday", "audit/facts", "since");
        assertEquals("yesterday", since.getString("value"));
        assertEquals("a count of hours or days: 30d, 12h", since.getString("accepted"));
        var from = refused("/audit/facts?from=nope&to=2026-11-01T00:00:00Z", "audit/facts", "from");
        assertEquals("nope", from.getString("value"));
        assertTrue(from.getString("accepted").startsWith("an ISO-8601 time"), from.prettify());
        assertEquals("tomorrow", refused("/audit/facts?from=2026-11-01T00:00:00Z&to=tomorrow", "audit/facts", "to").getString("value"));
        assertEquals("give since or from and to, not both",
                refused("/audit/facts?since=1d&to=2026-11-01T00:00:00Z", "audit/facts", "to").getString("error"));
        assertEquals(null, refused("/audit/facts?from=2026-11-01T00:00:00Z", "audit/facts", "to").getString("value"), "left out");
        var backwards = refused("/audit/facts?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z", "audit/facts", "from");
        assertEquals("a time before 'to'", backwards.getString("accepted"));
        assertEquals("'from' (2026-11-02T00:00:00Z) is not before 'to' (2026-11-01T00:00:00Z)", backwards.getString("error"));
        // An offset that moves a time is shown as read: here 'from' is the same instant as 'to'.
        assertEquals("'from' (2026-11-01T02:00:00+02:00 = 2026-11-01T00:00:00Z) is not before 'to' (2026-11-01T00:00:00Z)",
                refused("/audit/facts?from=2026-11-01T02:00:00%2B02:00&to=2026-11-01T00:00:00Z", "audit/facts", "from")
                        .getString("error"));
    }

    @Test
    void anExportFormatItDoesNotWriteIsRefusedListingTheFormats() {
        for (String format : List.of("bogus", "ocsf", "CSV", "JSONL")) {
            var body = refused("/audit/export?format=" + format, "audit/export", "format");
            assertEquals(format, body.getString("value"));
            assertEquals("jsonl, csv", body.getString("accepted"));
        }
    }

    @Test
    void aCallerWithoutTheRoleIsRefused403AsBeforeWhateverItsQuery() {
        Response r = get(TestIssuer.tokenFor("bob"), "/audit/search?limit=abc&subjct=x");
        assertEquals(403, r.statusCode(), r.asString());
        AuditRow row = AuditRow.first("kind = 'AUDIT_READ' AND subject = 'bob' AND method = 'audit/search' ORDER BY id DESC");
        assertEquals("forbidden", row.outcome);
        r = get(TestIssuer.tokenFor("bob"), "/audit/proof?requestId=nonsense");
        assertEquals(403, r.statusCode(), r.asString());
        assertEquals("forbidden",
                AuditRow.first("kind = 'AUDIT_READ' AND subject = 'bob' AND method = 'audit/proof' ORDER BY id DESC").outcome);
    }
}
