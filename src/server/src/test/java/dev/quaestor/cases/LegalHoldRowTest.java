package dev.quaestor.cases;

import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A legal hold's row changes in the database only as the application changes it (widened, its release asked for, then
 * made by someone else): the application role may update no other column, and even the owner's plain UPDATE that
 * retargets, narrows or releases a hold behind the case's back is refused, so retention goes on keeping what it covers.
 */
@QuarkusTest
class LegalHoldRowTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static long openCase() {
        return as("auditor").body("{\"title\":\"Hold rows\",\"members\":[\"auditor2\"]}").post("/audit/cases").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    private static long putHold(long caseId) {
        return as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"alice\",\"from\":\"2026-01-01T00:00:00Z\",\"reason\":\"r\"}")
                .post("/audit/cases/" + caseId + "/holds").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    private static JsonPath hold(long caseId, long holdId) {
        var all = as("auditor2").get("/audit/cases/" + caseId + "/holds").then().statusCode(200).extract().jsonPath();
        return new JsonPath(all.prettify()).setRootPath("holds.find { it.id == " + holdId + " }");
    }

    private static Connection app() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "");
    }

    private static Connection owner() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    /** Runs {@code sql} on {@code holdId} (its {@code ?}) and expects it refused; returns the refusal's message. */
    private static String refused(Connection c, String sql, long holdId) {
        var e = assertThrows(SQLException.class, () -> c.createStatement().executeUpdate(sql.replace("?", Long.toString(holdId))),
                sql);
        return e.getMessage();
    }

    private static void unchanged(long caseId, long holdId, String state) {
        JsonPath h = hold(caseId, holdId);
        assertEquals("SUBJECT", h.getString("scope"));
        assertEquals("alice", h.getString("target"));
        assertEquals("2026-01-01T00:00:00Z", h.getString("from"));
        assertNull(h.getString("to"));
        assertEquals("r", h.getString("reason"));
        assertEquals("auditor", h.getString("createdBy"));
        assertEquals(state, h.getString("state"));
        assertNull(h.getString("releasedBy"));
    }

    @Test
    void theApplicationRoleMayNotRetargetNarrowOrReleaseAHoldBehindTheCasesBack() throws SQLException {
        long caseId = openCase();
        long holdId = putHold(caseId);
        try (Connection app = app()) {
            for (String sql : new String[] {"UPDATE legal_hold SET target = 'nobody' WHERE id = ?",
                    "UPDATE legal_hold SET scope = 'CASE', target = NULL WHERE id = ?",
                    "UPDATE legal_hold SET reason = 'other' WHERE id = ?",
                    "UPDATE legal_hold SET created_by = 'mallory', created_at = now() WHERE id = ?",
                    "UPDATE legal_hold SET case_id = case_id WHERE id = ?"}) {
                String why = refused(app, sql, holdId);
                assertTrue(why.contains("permission denied"), sql + ": " + why);
            }
            assertTrue(refused(app, "UPDATE legal_hold SET from_time = '2026-06-01T00:00:00Z' WHERE id = ?", holdId)
                    .contains("a hold is only ever widened"));
            assertTrue(refused(app, "UPDATE legal_hold SET to_time = '2026-02-01T00:00:00Z' WHERE id = ?", holdId)
                    .contains("a hold is only ever widened"));
            String why = refused(app, "UPDATE legal_hold SET release_asked_by = 'x', release_asked_at = now(), release_reason = 'r',"
                    + " released_by = 'mallory', released_at = now() WHERE id = ?", holdId);
            assertTrue(why.contains("nobody had asked for its release"), why);
            why = refused(app, "INSERT INTO legal_hold (case_id, scope, target, from_time, reason, created_by, created_at,"
                    + " release_asked_by, release_asked_at, release_reason, released_by, released_at) SELECT case_id, scope, target,"
                    + " from_time, reason, created_by, created_at, 'x', now(), 'r', 'mallory', now() FROM legal_hold WHERE id = ?",
                    holdId);
            assertTrue(why.contains("a hold is put unreleased"), why);
        }
        unchanged(caseId, holdId, "active");
    }

    @Test
    void evenTheOwnersPlainUpdateCannotRetargetNarrowOrReleaseAHold() throws SQLException {
        long caseId = openCase();
        long holdId = putHold(caseId);
        String base = "/audit/cases/" + caseId + "/holds/" + holdId;
        try (Connection owner = owner()) {
            String why = refused(owner, "UPDATE legal_hold SET release_asked_by = 'x', release_asked_at = now(), released_by = 'mallory',"
                    + " released_at = now() WHERE id = ?", holdId);
            assertTrue(why.contains("legal hold " + holdId + ":"), why);
            why = refused(owner, "UPDATE legal_hold SET from_time = '2026-03-01T00:00:00Z', target = 'nobody' WHERE id = ?", holdId);
            assertTrue(why.contains("its case, scope, target, reason, creator and creation time never change"), why);
            why = refused(owner, "UPDATE legal_hold SET from_time = '2026-03-01T00:00:00Z' WHERE id = ?", holdId);
            assertTrue(why.contains("a hold is only ever widened"), why);
            why = refused(owner, "UPDATE legal_hold SET created_at = now() WHERE id = ?", holdId);
            assertTrue(why.contains("never change"), why);
            unchanged(caseId, holdId, "active");

            as("auditor").body("{\"reason\":\"settled\"}").post(base + "/release-request").then().statusCode(200);
            why = refused(owner, "UPDATE legal_hold SET release_asked_by = 'auditor2', release_reason = 'other' WHERE id = ?", holdId);
            assertTrue(why.contains("the ask never changes"), why);
            why = refused(owner, "UPDATE legal_hold SET released_by = release_asked_by, released_at = now() WHERE id = ?", holdId);
            assertTrue(why.contains("legal_hold_four_eyes"), why);
            why = refused(owner, "UPDATE legal_hold SET released_by = 'mallory' WHERE id = ?", holdId);
            assertTrue(why.contains("both at once"), why);
            unchanged(caseId, holdId, "release asked");

            // The application's own changes go through: a second member releases it. Then it never changes again.
            as("auditor2").post(base + "/release").then().statusCode(200);
            assertEquals("auditor2", hold(caseId, holdId).getString("releasedBy"));
            why = refused(owner, "UPDATE legal_hold SET released_by = 'mallory', released_at = now() WHERE id = ?", holdId);
            assertTrue(why.contains("a released hold never changes"), why);
            why = refused(owner, "UPDATE legal_hold SET to_time = NULL, from_time = '2020-01-01T00:00:00Z' WHERE id = ?", holdId);
            assertTrue(why.contains("a released hold never changes"), why);
        }
        assertEquals("auditor2", hold(caseId, holdId).getString("releasedBy"));
        assertEquals("2026-01-01T00:00:00Z", hold(caseId, holdId).getString("from"));
    }
}
