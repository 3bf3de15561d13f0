package dev.quaestor.cases;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

/**
 * A caller who is not staff (neither auditor nor case administrator) is refused every call about cases and holds, 403
 * with why; the refusal is on record under the case the call was about, so an attempt on a case or its hold can be
 * found from the case, and says why it was refused.
 */
@QuarkusTest
class CaseStaffRefusalTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    @Test
    void aRefusedAttemptOnACaseOrItsHoldNamesTheCaseAndWhy() {
        long id = as("auditor").body("{\"title\":\"Refusals name the case\",\"description\":\"why\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        long last = AuditRow.first("1=1 ORDER BY id DESC LIMIT 1").id;

        String error = as("carol").get("/audit/cases/" + id).then().statusCode(403).extract().path("error");
        assertTrue(error.contains("quaestor-auditor"), error);
        as("carol").post("/audit/cases/" + id + "/holds/4/release").then().statusCode(403);
        as("carol").body("{\"title\":\"t\",\"description\":\"d\"}").post("/audit/cases").then().statusCode(403);

        var rows = AuditRow.list("id > ? AND subject = 'carol' ORDER BY id", last);
        assertEquals(3, rows.size(), rows.toString());
        assertEquals("audit/cases/open", rows.get(0).method);
        assertEquals("audit/cases/hold/release", rows.get(1).method);
        assertEquals("audit/cases/create", rows.get(2).method);
        assertEquals(AuditCase.uriOf(id), rows.get(0).uri, "the case read at");
        assertEquals(AuditCase.uriOf(id), rows.get(1).uri, "the case whose hold was to be released");
        assertEquals(null, rows.get(2).uri, "a case not yet made has no uri");
        for (AuditRow r : rows) {
            assertEquals("DENY", r.decision, r.toString());
            assertEquals("forbidden", r.outcome, r.toString());
            assertTrue(r.detail != null && r.detail.contains("quaestor-auditor"), r.toString());
        }
    }
}
