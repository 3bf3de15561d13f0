package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Hmac;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Legal holds with four eyes: the person who asked for a release cannot release the hold, a second member of staff
 * can, and both are on record (ADMIN records under the hold's uri, the refusal too); the database refuses the same
 * person in both places even to a direct update. A hold is only ever widened.
 */
@QuarkusTest
class LegalHoldTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static long openCase() {
        return as("auditor").body("{\"title\":\"Hold test\",\"members\":[\"auditor2\"]}").post("/audit/cases").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    private static long putHold(long caseId) {
        return as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"bob\",\"from\":\"2020-01-01T00:00:00Z\","
                + "\"to\":\"2020-07-01T00:00:00Z\",\"reason\":\"litigation notice 7\"}").post("/audit/cases/" + caseId + "/holds")
                .then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private static JsonPath hold(long caseId, long holdId) {
        var all = as("auditor2").get("/audit/cases/" + caseId + "/holds").then().statusCode(200).extract().jsonPath();
        return new JsonPath(all.prettify()).setRootPath("holds.find { it.id == " + holdId + " }");
    }

    @Test
    void theAskerCannotReleaseASecondPersonCanAndBothAreOnRecord() {
        long caseId = openCase();
        long holdId = putHold(caseId);
        String base = "/audit/cases/" + caseId + "/holds/" + holdId;

        // Nobody asked yet: no one releases it.
        String error = as("auditor2").post(base + "/release").then().statusCode(409).extract().path("error");
        assertTrue(error.contains("nobody has asked"), error);

        as("auditor").body("{\"reason\":\"the matter settled\"}").post(base + "/release-request").then().statusCode(200);
        // The asker cannot release it...
        error = as("auditor").post(base + "/release").then().statusCode(409).extract().path("error");
        assertTrue(error.contains("a second member of staff must release it"), error);
        assertEquals("release asked", hold(caseId, holdId).getString("state"));
        // ...nor can someone who does not see the case...
        as("auditor3").post(base + "/release").then().statusCode(404);
        assertEquals("release asked", hold(caseId, holdId).getString("state"));
        // ...a second member can.
        as("auditor2").post(base + "/release").then().statusCode(200);
        JsonPath h = hold(caseId, holdId);
        assertEquals("released", h.getString("state"));
        assertEquals("auditor", h.getString("releaseAskedBy"));
        assertEquals("auditor2", h.getString("releasedBy"));
        assertEquals("the matter settled", h.getString("releaseReason"));
        // Released is final.
        as("auditor").post(base + "/release").then().statusCode(409);

        String holdUri = AuditCase.uriOf(caseId) + "hold/" + holdId;
        var records = AuditRow.list("uri = ? ORDER BY id", holdUri);
        assertEquals(List.of("audit/cases/hold/put", "audit/cases/hold/ask-release", "audit/cases/hold/release"),
                records.stream().map(r -> r.method).toList(), records.toString());
        assertTrue(records.stream().allMatch(r -> r.kind.equals("ADMIN") && r.decision.equals("ALLOW")), records.toString());
        assertEquals(List.of("auditor", "auditor", "auditor2"), records.stream().map(r -> r.subject).toList());
        // The scope, range and people are named; the target and the reasons are bound by their HMAC under the case's key
        // (which its members are given), not written out.
        String key = as("auditor2").get("/audit/cases/" + caseId).then().statusCode(200).extract().jsonPath().getString("sealKey");
        assertEquals("put hold " + holdId + " on SUBJECT from 2020-01-01T00:00:00Z to 2020-07-01T00:00:00Z; target hmac-sha256="
                + Hmac.sha256(key, "bob") + "; reason hmac-sha256=" + Hmac.sha256(key, "litigation notice 7"), records.get(0).detail);
        assertTrue(!records.get(0).detail.contains("bob") && !records.get(0).detail.contains("litigation"), records.get(0).detail);
        assertEquals("asked to release hold " + holdId + "; reason hmac-sha256=" + Hmac.sha256(key, "the matter settled")
                + "; another member of staff must release it", records.get(1).detail);
        assertTrue(!records.get(1).detail.contains("the matter settled"), records.get(1).detail);
        assertTrue(records.get(2).detail.startsWith("released hold " + holdId + " as asked by auditor at"), records.get(2).detail);
        assertTrue(!records.get(2).detail.contains("the matter settled"), records.get(2).detail);
        // The refused attempts are on record under the case, by whom and why.
        var refused = AuditRow.list("uri = ? AND method = 'audit/cases/hold/release' AND decision = 'DENY' ORDER BY id",
                AuditCase.uriOf(caseId));
        assertEquals(List.of("auditor2", "auditor", "auditor3", "auditor"), refused.stream().map(r -> r.subject).toList(), refused.toString());
        assertTrue(refused.get(1).detail.contains("four eyes") && refused.get(1).outcome.equals("refused"), refused.get(1).detail);
        assertEquals("not-found", refused.get(2).outcome);
    }

    @Test
    void theDatabaseRefusesOnePersonInBothPlaces() throws SQLException {
        long caseId = openCase();
        long holdId = putHold(caseId);
        as("auditor").body("{\"reason\":\"done\"}").post("/audit/cases/" + caseId + "/holds/" + holdId + "/release-request")
                .then().statusCode(200);
        try (var app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
            var e = assertThrows(SQLException.class, () -> app.createStatement().executeUpdate(
                    "UPDATE legal_hold SET released_by = release_asked_by, released_at = now() WHERE id = " + holdId));
            assertTrue(e.getMessage().contains("legal_hold_four_eyes"), e.getMessage());
            e = assertThrows(SQLException.class, () -> app.createStatement().executeUpdate("DELETE FROM legal_hold WHERE id = " + holdId));
            assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
        }
        assertNull(hold(caseId, holdId).getString("releasedBy"));
    }

    @Test
    void aHoldIsOnlyWidenedAndBadHoldsAreRefused() {
        long caseId = openCase();
        long holdId = putHold(caseId);
        String base = "/audit/cases/" + caseId + "/holds/" + holdId;
        as("auditor2").body("{\"to\":\"2020-03-01T00:00:00Z\"}").post(base + "/widen").then().statusCode(409);
        as("auditor2").body("{\"from\":\"2020-02-01T00:00:00Z\"}").post(base + "/widen").then().statusCode(409);
        as("auditor2").body("{\"from\":\"2019-06-01T00:00:00Z\",\"to\":\"none\"}").post(base + "/widen").then().statusCode(200);
        JsonPath h = hold(caseId, holdId);
        assertEquals("2019-06-01T00:00:00Z", h.getString("from"));
        assertNull(h.getString("to"));
        var widened = AuditRow.list("uri = ? AND method = 'audit/cases/hold/widen' AND decision = 'ALLOW'", AuditCase.uriOf(caseId)
                + "hold/" + holdId);
        assertEquals(1, widened.size());
        assertEquals("widened hold " + holdId + "; was from 2020-01-01T00:00:00Z to 2020-07-01T00:00:00Z; now from 2019-06-01T00:00:00Z with no end",
                widened.get(0).detail);

        as("auditor").body("{\"scope\":\"EVERYTHING\",\"from\":\"2020-01-01T00:00:00Z\",\"reason\":\"x\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(400);
        as("auditor").body("{\"scope\":\"SUBJECT\",\"from\":\"2020-01-01T00:00:00Z\",\"reason\":\"x\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(400);
        as("auditor").body("{\"scope\":\"CASE\",\"from\":\"2020-02-01T00:00:00Z\",\"to\":\"2020-01-01T00:00:00Z\",\"reason\":\"x\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(400);
        as("auditor").body("{\"scope\":\"URI_PREFIX\",\"target\":\"file:///docs/\",\"from\":\"yesterday\",\"reason\":\"x\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(400);
        String later = java.time.Instant.now().plus(java.time.Duration.ofHours(1)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                .toString();
        as("auditor").body("{\"scope\":\"CASE\",\"from\":\"" + later + "\",\"reason\":\"a year mistyped\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.containsString("'from' is in the future"));
        assertEquals(1, as("auditor").get("/audit/cases/" + caseId + "/holds").then().statusCode(200).extract().jsonPath()
                .getList("holds").size(), "nothing refused was stored");
    }
}
