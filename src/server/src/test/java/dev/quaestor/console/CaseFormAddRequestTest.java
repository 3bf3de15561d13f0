package dev.quaestor.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request added to a case from the console is looked for in the audit log only once the change is on record, as
 * through the API: one the log does not hold is refused (400, a console page) and on record as not stored under the
 * change's own request id, which the page names; one it holds is added, with its one record.
 */
@QuarkusTest
class CaseFormAddRequestTest {

    @Test
    void aRequestIsLookedForOnlyOnceItsAddingIsOnRecordAndARefusalNamesThatRecord() {
        long id = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"Added from the console\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        var console = ConsoleSession.signIn("auditor");
        String absent = "no-such-request-" + System.nanoTime();

        Response refused = add(console, id, absent);
        assertEquals(400, refused.statusCode(), refused.body().asString());
        assertTrue(refused.body().asString().contains("the audit log holds no record of request " + absent), refused.body().asString());
        String requestId = refused.header("X-Request-Id");
        var records = AuditRow.list("uri = ? AND method = 'audit/cases/add-request' ORDER BY id", AuditCase.uriOf(id));
        // On record before the log was read (ok), then not stored, both under the request id the page names.
        assertEquals(List.of("ALLOW/ok/added request " + absent, "ALLOW/invalid/added request " + absent
                + "; not stored: the audit log holds no record of request " + absent),
                records.stream().map(r -> r.decision + "/" + r.outcome + "/" + r.detail).toList());
        assertEquals(List.of(requestId, requestId), records.stream().map(r -> r.requestId).toList());
        assertTrue(refused.body().asString().contains(requestId), "the page names the record");

        String present = AuditRow.list("uri = ? AND method = 'audit/cases/create'", AuditCase.uriOf(id)).get(0).requestId;
        assertEquals(303, add(console, id, present).statusCode());
        records = AuditRow.list("uri = ? AND method = 'audit/cases/add-request' ORDER BY id", AuditCase.uriOf(id));
        assertEquals(3, records.size(), records.toString());
        assertEquals("ALLOW/ok/added request " + present, records.get(2).decision + "/" + records.get(2).outcome + "/"
                + records.get(2).detail);
    }

    private static Response add(ConsoleSession console, long caseId, String requestId) {
        return given().header("Cookie", console.cookies()).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .formParam("csrf", console.csrf()).formParam("requestId", requestId).post("/console/cases/" + caseId + "/requests");
    }
}
