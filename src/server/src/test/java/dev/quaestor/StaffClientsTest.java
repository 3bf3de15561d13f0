package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quaestor.admin.staff-clients}: the administrator and auditor APIs answer tokens of the clients named there
 * only. An auditor's (or administrator's) token held by another client, such as an AI client acting for that person,
 * is refused 403, on record with the reason.
 */
@QuarkusTest
@TestProfile(StaffClientsTest.Profile.class)
class StaffClientsTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.admin.staff-clients", "audit-tooling,test-client");
        }
    }

    private static String auditorTokenOf(String client) {
        return TestIssuer.sign(TestIssuer.claims("auditor").claim("azp", client));
    }

    @Test
    void theStaffApisAnswerTheNamedClientsOnly() {
        given().auth().oauth2(auditorTokenOf("audit-tooling")).get("/audit/search?limit=1").then().statusCode(200);
        given().auth().oauth2(auditorTokenOf("test-client")).get("/audit/search?limit=1").then().statusCode(200);

        String agent = auditorTokenOf("ai-agent");
        String refusedId = given().auth().oauth2(agent).get("/audit/search?limit=1").then().statusCode(403).extract()
                .header("X-Request-Id");
        assertEquals(List.of("DENY/forbidden"), AuditRow.list("request_id = ?", refusedId).stream()
                .map(r -> r.decision + "/" + r.outcome).toList(), "the 403 names its record");
        given().auth().oauth2(TestIssuer.sign(TestIssuer.claims("admin").claim("azp", "ai-agent")))
                .get("/admin/policy").then().statusCode(403);

        var refused = AuditRow.list("subject = 'auditor' AND decision = 'DENY' AND detail LIKE ?",
                "%client ai-agent is not one of quaestor.admin.staff-clients%");
        assertTrue(!refused.isEmpty(), "the refusal is on record with its reason");
        assertEquals("forbidden", refused.get(0).outcome);
        assertTrue(!AuditRow.list("subject = 'admin' AND decision = 'DENY' AND method = 'admin/policy/status' AND detail LIKE ?",
                "%client ai-agent%").isEmpty(), "the administrator's refusal too");
    }

    @Test
    void casesAndHoldsAnswerTheNamedClientsOnly() {
        String agent = auditorTokenOf("ai-agent");
        given().auth().oauth2(agent).contentType("application/json").body("{\"title\":\"opened by an AI client\"}")
                .post("/audit/cases").then().statusCode(403);
        given().auth().oauth2(agent).get("/audit/cases").then().statusCode(403);
        given().auth().oauth2(TestIssuer.sign(TestIssuer.claims("caseadmin").claim("azp", "ai-agent")))
                .get("/audit/cases/1/holds").then().statusCode(403);
        assertTrue(AuditRow.list("subject = 'auditor' AND detail = 'opened by an AI client'").isEmpty());
        assertTrue(!AuditRow.list("subject = 'auditor' AND decision = 'DENY' AND method LIKE 'audit/case%' AND detail LIKE ?",
                "%client ai-agent is not one of quaestor.admin.staff-clients%").isEmpty(), "the refusal is on record with its reason");

        given().auth().oauth2(auditorTokenOf("audit-tooling")).contentType("application/json")
                .body("{\"title\":\"opened by the audit tooling\"}").post("/audit/cases").then().statusCode(201);
    }
}
