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
 * A page's cursor that is not one ({@code before} on the case list and on a case's history) is refused 400, on record
 * as {@code DENY} {@code invalid}, and the answer's {@code X-Request-Id} names that record, as for every other refusal
 * on record.
 */
@QuarkusTest
class CaseCursorRefusalTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    @Test
    void aBadCursorOfTheCaseListIsAnsweredWithTheRequestIdOfItsRecord() {
        Response refused = as("auditor").queryParam("before", "soon").get("/audit/cases").then().statusCode(400).extract().response();
        assertTrue(refused.jsonPath().getString("error").startsWith("'before' is not a cursor of the case list"), refused.asString());
        AuditRow record = recordOf(refused);
        assertEquals(List.of("AUDIT_READ", "audit/cases/list", "DENY", "invalid"),
                List.of(record.kind, record.method, record.decision, record.outcome));
        assertEquals("'before' is not a cursor of the case list: soon", record.detail);
    }

    @Test
    void aBadCursorOfACaseHistoryIsAnsweredWithTheRequestIdOfItsRecord() {
        long id = as("auditor").body("{\"title\":\"Cursor\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        Response refused = as("auditor").queryParam("before", "not-a-cursor").get("/audit/cases/" + id + "/history").then()
                .statusCode(400).extract().response();
        AuditRow record = recordOf(refused);
        assertEquals(List.of("AUDIT_READ", "audit/cases/history", AuditCase.uriOf(id), "DENY", "invalid"),
                List.of(record.kind, record.method, record.uri, record.decision, record.outcome));
        assertEquals("'before' is not a cursor of the case's history: not-a-cursor", record.detail);
    }

    /** The one record the refusal's {@code X-Request-Id} names. */
    private static AuditRow recordOf(Response refused) {
        String requestId = refused.header("X-Request-Id");
        assertNotNull(requestId, "the 400 names its record");
        var records = AuditRow.list("request_id = ?", requestId);
        assertEquals(1, records.size(), records.toString());
        return records.get(0);
    }
}
