package dev.quaestor.cases;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bodies of the calls that change cases and holds are read strictly, once the caller is let in as staff: a field
 * the call does not take, a value of another type or a body that is not JSON is a 400 naming it, on record as a
 * {@code DENY} {@code invalid} with why, and nothing is changed; a caller who is not staff is refused 403 for who they
 * are, on record, whatever the body.
 */
@QuarkusTest
class CaseBodyRefusalTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    /** 400 whose error starts with {@code said}, on record once as ADMIN DENY invalid with that error, under {@code uri}. */
    private static void refused(Response r, String method, String uri, String said) {
        assertEquals(400, r.statusCode(), method + ": " + r.asString());
        assertTrue(r.jsonPath().getString("error").startsWith(said), r.asString());
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record: " + r.asString());
        List<AuditRow> rows = AuditRow.list("request_id = ?", id);
        assertEquals(1, rows.size(), "one record of the call");
        AuditRow row = rows.get(0);
        assertEquals("ADMIN/" + method + "/DENY/invalid", row.kind + "/" + row.method + "/" + row.decision + "/" + row.outcome);
        assertEquals(uri, row.uri, method);
        assertTrue(row.detail.contains(r.jsonPath().getString("error")), "why, in the record: " + row.detail);
    }

    @Test
    void aBodyOfAnotherShapeIsRefusedNamingTheFieldAndOnRecord() {
        long before = AuditRow.count("method = 'audit/cases/create' AND decision = 'ALLOW'");
        refused(as("auditor").body("{\"title\":12,\"members\":[\"auditor2\"]}").post("/audit/cases"), "audit/cases/create", null,
                "field 'title' must be a string");
        refused(as("auditor").body("{\"title\":\"t\",\"members\":[\"auditor2\",5]}").post("/audit/cases"), "audit/cases/create", null,
                "field 'members[1]' must be a string");
        refused(as("auditor").body("{\"titel\":\"t\",\"members\":[]}").post("/audit/cases"), "audit/cases/create", null,
                "unknown field 'titel'; the fields are description, members, title");
        refused(as("auditor").body("{\"title\":").post("/audit/cases"), "audit/cases/create", null, "the body is not JSON");
        assertEquals(before, AuditRow.count("method = 'audit/cases/create' AND decision = 'ALLOW'"), "no case opened");

        long id = as("auditor").body("{\"title\":\"Body refusals\",\"description\":\"why\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        String uri = AuditCase.uriOf(id);
        refused(as("auditor").body("{\"member\":7}").post("/audit/cases/" + id + "/members"), "audit/cases/add-member", uri,
                "field 'member' must be a string");
        refused(as("auditor").body("{\"text\":1.5}").post("/audit/cases/" + id + "/notes"), "audit/cases/add-note", uri,
                "field 'text' must be a string");
        refused(as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":true,\"from\":\"2026-01-01T00:00:00Z\",\"reason\":\"r\"}")
                .post("/audit/cases/" + id + "/holds"), "audit/cases/hold/put", uri, "field 'target' must be a string");
    }

    /**
     * A case's search takes what the auditor API's search takes, no more: a value it would refuse there (an empty filter,
     * a kind or decision no record has, a range that ends before it starts, a time no record can have) would here count
     * nothing, or everyone's records, in the case and its bundle without a word.
     */
    @Test
    void aCaseSearchTheAuditorApiWouldRefuseIsRefusedAndNotKept() {
        long id = as("auditor").body("{\"title\":\"Search refusals\",\"description\":\"why\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        String uri = AuditCase.uriOf(id);
        String[][] refusedQueries = {
                {"subject=&uriPrefix=file:///docs/", "search filter 'subject' is empty"},
                {"subject=alice&kind=outcome", "search filter 'kind' must be one of "},
                {"subject=alice&decision=deny", "search filter 'decision' must be one of ALLOW, DENY, FILTER"},
                {"subject=alice&from=2026-12-01T00:00:00Z&to=2026-11-01T00:00:00Z", "'from' (2026-12-01T00:00:00Z) is after 'to'"},
                {"subject=alice&to=%2B999999999-12-31T23:59:59Z", "'to' is outside the years 0001 to 9999"}};
        for (String[] q : refusedQueries) {
            refused(as("auditor").body("{\"name\":\"s\",\"query\":\"" + q[0] + "\"}").post("/audit/cases/" + id + "/searches"),
                    "audit/cases/add-search", uri, q[1]);
        }
        assertEquals(0, as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getList("searches")
                .size(), "none kept");
        as("auditor").body("{\"name\":\"s\",\"query\":\"subject=alice&kind=OUTCOME&decision=ALLOW\"}")
                .post("/audit/cases/" + id + "/searches").then().statusCode(200);
    }

    /** A hold's time no record can have is refused naming it, not a database failure (500) with nothing on record. */
    @Test
    void aHoldTimeOutsideTheYearsARecordCanHaveIsRefusedAndOnRecord() {
        long id = as("auditor").body("{\"title\":\"Hold times\",\"description\":\"why\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        String uri = AuditCase.uriOf(id);
        refused(as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"alice\",\"from\":\"-999999999-01-01T00:00:00Z\",\"reason\":\"r\"}")
                .post("/audit/cases/" + id + "/holds"), "audit/cases/hold/put", uri, "'from' is outside the years 0001 to 9999");
        refused(as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"alice\",\"from\":\"2026-01-01T00:00:00Z\","
                + "\"to\":\"+999999999-12-31T23:59:59Z\",\"reason\":\"r\"}").post("/audit/cases/" + id + "/holds"),
                "audit/cases/hold/put", uri, "'to' is outside the years 0001 to 9999");
    }

    @Test
    void aBodyFromSomeoneWhoIsNotStaffIsRefusedForWhoTheyAreNotParsed() {
        Response r = as("alice").body("{\"title\":").post("/audit/cases");
        assertEquals(403, r.statusCode(), r.asString());
        AuditRow row = AuditRow.first("request_id = ?", r.header("X-Request-Id"));
        assertEquals("ADMIN/audit/cases/create/DENY/forbidden", row.kind + "/" + row.method + "/" + row.decision + "/" + row.outcome);
    }
}
