package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call to the staff side that names no call it answers (a path no resource has, a method the path does not take, an
 * id that is not a number) is answered as routing answers it and is on record first, DENY invalid, under the answer's
 * X-Request-Id, whoever makes it. Before, none of them was recorded. Elsewhere routing's answer stands, unrecorded.
 */
@QuarkusTest
class UnroutedStaffCallsTest {

    private static AuditRow recordOf(Response r, int status) {
        assertEquals(status, r.statusCode(), r.body().asString());
        String id = r.header("X-Request-Id");
        assertNotNull(id, "the answer names its record: " + r.headers());
        var rows = AuditRow.list("request_id = ?", id);
        assertEquals(1, rows.size(), id);
        AuditRow row = rows.get(0);
        assertEquals("DENY", row.decision);
        assertEquals("invalid", row.outcome);
        return row;
    }

    @Test
    void callsToNoStaffResourceAreOnRecord() {
        String alice = TestIssuer.tokenFor("alice");
        String auditor = TestIssuer.tokenFor("auditor");

        AuditRow nothing = recordOf(given().auth().oauth2(alice).get("/audit/nothing"), 404);
        assertEquals("alice", nothing.subject);
        assertEquals("GET /audit/nothing", nothing.method);
        assertEquals("AUDIT_READ", nothing.kind);

        AuditRow notANumber = recordOf(given().auth().oauth2(auditor).get("/audit/cases/abc"), 404);
        assertEquals("auditor", notANumber.subject);

        Response wrongMethod = given().auth().oauth2(alice).contentType("application/json").body("{}").post("/audit/search");
        AuditRow posted = recordOf(wrongMethod, 405);
        assertEquals("no such call: POST /audit/search (405: a method the path does not take)", posted.detail);

        AuditRow admin = recordOf(given().auth().oauth2(alice).delete("/admin/policy"), 405);
        assertEquals("ADMIN", admin.kind);

        var console = ConsoleSession.signIn("auditor");
        AuditRow page = recordOf(console.get("/console/searches"), 405);
        assertEquals("auditor", page.subject);
    }

    @Test
    void routingAnswersElsewhereStandUnrecorded() {
        Response health = given().get("/q/health/ready");
        assertEquals(200, health.statusCode(), health.body().asString());
        Response metadata = given().get("/.well-known/oauth-protected-resource");
        assertEquals(200, metadata.statusCode(), metadata.body().asString());
        Response elsewhere = given().auth().oauth2(TestIssuer.tokenFor("alice")).get("/nowhere");
        assertEquals(404, elsewhere.statusCode());
        assertNull(elsewhere.header("X-Request-Id"));
    }
}
