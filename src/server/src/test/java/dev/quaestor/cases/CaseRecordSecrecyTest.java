package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a case holds stays in the case: an auditor who is not a member (here the one investigated) reads the case's
 * records in the trail and learns none of its title, description, notes, searches, hold targets or reasons; each
 * record binds the text instead by its length and SHA-256, which a member checks against the text on the case.
 */
@QuarkusTest
class CaseRecordSecrecyTest {

    private static final String TITLE = "Investigation of auditor3";
    private static final String DESCRIPTION = "Night-time exports by auditor3";
    private static final String NOTE = "auditor3 exported PHI at night";
    private static final String SEARCH_NAME = "exports by auditor3";
    private static final String HOLD_TARGET = "auditor3";
    private static final String HOLD_REASON = "Preserve auditor3's exports for HR";
    private static final String RELEASE_REASON = "HR closed the matter of auditor3";

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static String sha256(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void aNonMemberReadingTheTrailLearnsNothingTheCaseHolds() throws Exception {
        long id = as("auditor").body("{\"title\":\"" + TITLE + "\",\"description\":\"" + DESCRIPTION + "\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        as("auditor").body("{\"text\":\"" + NOTE + "\"}").post("/audit/cases/" + id + "/notes").then().statusCode(200);
        as("auditor").body("{\"name\":\"" + SEARCH_NAME + "\",\"query\":\"subject=auditor3&uriPrefix=quaestor%3Aexport\"}")
                .post("/audit/cases/" + id + "/searches").then().statusCode(200);
        long hold = as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"" + HOLD_TARGET + "\",\"from\":\"2026-01-01T00:00:00Z\","
                + "\"reason\":\"" + HOLD_REASON + "\"}").post("/audit/cases/" + id + "/holds").then().statusCode(201)
                .extract().jsonPath().getLong("id");
        as("auditor").body("{\"reason\":\"" + RELEASE_REASON + "\"}").post("/audit/cases/" + id + "/holds/" + hold + "/release-request")
                .then().statusCode(200);
        as("auditor2").post("/audit/cases/" + id + "/holds/" + hold + "/release").then().statusCode(200);

        // The one investigated cannot open the case, and reads its records in the trail.
        as("auditor3").get("/audit/cases/" + id).then().statusCode(404);
        String trail = as("auditor3").queryParam("uriPrefix", AuditCase.uriOf(id)).queryParam("limit", 1000).get("/audit/search")
                .then().statusCode(200).extract().asString();
        var rows = AuditRow.list("uri LIKE ? ORDER BY id", AuditCase.uriOf(id) + "%");
        assertEquals(6, rows.stream().filter(r -> r.kind.equals("ADMIN") && r.outcome.equals("ok")).count(), rows.toString());
        String stored = rows.stream().map(r -> r.detail == null ? "" : r.detail).reduce("", (a, b) -> a + "\n" + b);
        for (String secret : List.of(TITLE, DESCRIPTION, NOTE, SEARCH_NAME, "subject=auditor3", HOLD_REASON, RELEASE_REASON, "SUBJECT auditor3")) {
            assertFalse(trail.contains(secret), secret + " in what auditor3 reads: " + trail);
            assertFalse(stored.contains(secret), secret + " on record: " + stored);
        }

        // Each record binds what was stored: the note's record holds its id, length and hash, as the case shows them.
        var c = as("auditor2").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        long noteId = c.getLong("notes[0].id");
        assertEquals(sha256(NOTE), c.getString("notes[0].sha256"));
        var note = rows.stream().filter(r -> r.method.equals("audit/cases/add-note")).findFirst().orElseThrow();
        assertEquals("added note " + noteId + "; text " + NOTE.length() + " bytes sha256=" + sha256(NOTE), note.detail);
        var opened = rows.stream().filter(r -> r.method.equals("audit/cases/create")).findFirst().orElseThrow();
        assertEquals("opened case " + id + "; title " + TITLE.length() + " bytes sha256=" + sha256(TITLE) + "; description "
                + DESCRIPTION.length() + " bytes sha256=" + sha256(DESCRIPTION) + "; members [auditor, auditor2]", opened.detail);
        var put = rows.stream().filter(r -> r.method.equals("audit/cases/hold/put")).findFirst().orElseThrow();
        assertTrue(put.detail.contains("target " + HOLD_TARGET.length() + " bytes sha256=" + sha256(HOLD_TARGET)), put.detail);
        assertTrue(put.detail.contains("reason " + HOLD_REASON.length() + " bytes sha256=" + sha256(HOLD_REASON)), put.detail);
        var search = rows.stream().filter(r -> r.method.equals("audit/cases/add-search")).findFirst().orElseThrow();
        assertTrue(search.detail.contains("filters ") && search.detail.contains("sha256=" + sha256(c.getString("searches[0].query"))),
                search.detail);
    }
}
