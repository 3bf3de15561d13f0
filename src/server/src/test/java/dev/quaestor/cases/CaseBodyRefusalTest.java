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

    @Test
    void aBodyFromSomeoneWhoIsNotStaffIsRefusedForWhoTheyAreNotParsed() {
        Response r = as("alice").body("{\"title\":").post("/audit/cases");
        assertEquals(403, r.statusCode(), r.asString());
        AuditRow row = AuditRow.first("request_id = ?", r.header("X-Request-Id"));
        assertEquals("ADMIN/audit/cases/create/DENY/forbidden", row.kind + "/" + row.method + "/" + row.decision + "/" + row.outcome);
    }
}
