package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Hmac;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a case holds stays in the case: an auditor who is not a member (here the one investigated) reads the case's
 * records in the trail and learns none of its title, description, notes, searches, hold targets or reasons; each
 * record binds the text instead by its HMAC-SHA-256 under the case's seal key, which only those who see the case are
 * given, and with which a member checks the record against the text on the case.
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

    private static String hmac(String hexKey, String text) {
        return Hmac.sha256(hexKey, text);
    }

    /**
     * A hold's target is a subject, and every subject is named in the trail: an auditor who is not a member hashes each
     * subject the trail names and looks for the hash in the hold's record. The record holds a keyed hash that only the
     * case's members can make, so no subject's hash is found in it.
     */
    @Test
    void aHoldsTargetIsNotFoundByHashingTheSubjectsOfTheTrail() throws Exception {
        String since = java.time.Instant.now().minusSeconds(1).toString();
        long id = as("auditor").body("{\"title\":\"Quiet matter\",\"members\":[\"auditor2\"]}")
                .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        as("auditor3").get("/audit/cases/" + id).then().statusCode(404);
        long hold = as("auditor").body("{\"scope\":\"SUBJECT\",\"target\":\"auditor3\",\"from\":\"2026-01-01T00:00:00Z\","
                + "\"reason\":\"notice\"}").post("/audit/cases/" + id + "/holds").then().statusCode(201).extract().jsonPath().getLong("id");

        // The trail since this test began (a search reads oldest first): auditor3's refused look is in it.
        var trail = as("auditor3").queryParam("from", since).queryParam("limit", 1000).get("/audit/search").then().statusCode(200).extract().jsonPath();
        List<String> subjects = trail.getList("records.subject", String.class).stream().filter(s -> s != null).distinct().toList();
        assertTrue(subjects.contains("auditor3"), subjects.toString());
        String put = trail.getList("records.findAll { it.method == 'audit/cases/hold/put' && it.uri == '"
                + AuditCase.uriOf(id) + "hold/" + hold + "' }.detail", String.class).get(0);
        for (String subject : subjects) {
            assertFalse(put.contains(sha256(subject)), "the hold's record gives away its target " + subject + ": " + put);
        }

        // A member holds the case's key and checks the record against the target on the case.
        String key = as("auditor2").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getString("sealKey");
        assertEquals(64, key.length(), key);
        assertTrue(put.contains("; target hmac-sha256=" + hmac(key, "auditor3") + ";"), put);
        assertFalse(put.contains("bytes"), "no length on record: " + put);
    }

    /**
     * A case opened before there were seal keys has none: its first change that records a text sets one, and seals the
     * text under it; a change that records none leaves it without. Once set, the key is never changed, not even by a
     * direct update as the application's role, which may change nothing else of a case's row.
     */
    @Test
    void aCaseOpenedBeforeKeysGetsOneFromItsFirstChangeThatRecordsAText() throws Exception {
        long id;
        try (var owner = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            try (var insert = owner.prepareStatement("INSERT INTO audit_case (title, created_by, created_at) VALUES ('Old case', 'auditor', now())"
                    + " RETURNING id")) {
                var rs = insert.executeQuery();
                rs.next();
                id = rs.getLong(1);
            }
            owner.createStatement().executeUpdate("INSERT INTO audit_case_member (case_id, member, added_by, added_at) VALUES (" + id
                    + ", 'auditor', 'auditor', now())");
        }
        var before = as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertNull(before.getString("sealKey"), before.prettify());
        as("auditor").body("{\"member\":\"auditor2\"}").post("/audit/cases/" + id + "/members").then().statusCode(200);
        assertNull(as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getString("sealKey"));

        var after = as("auditor").body("{\"text\":\"" + NOTE + "\"}").post("/audit/cases/" + id + "/notes").then().statusCode(200)
                .extract().jsonPath();
        String key = after.getString("sealKey");
        assertEquals(64, key.length(), after.prettify());
        assertEquals(hmac(key, NOTE), after.getString("notes[0].hmac"));
        assertEquals(1, AuditRow.list("uri = ? AND method = 'audit/cases/add-note' AND detail = ?", AuditCase.uriOf(id),
                "added note " + after.getLong("notes[0].id") + "; text hmac-sha256=" + hmac(key, NOTE)).size());
        as("auditor").body("{\"name\":\"" + SEARCH_NAME + "\",\"query\":\"subject=auditor3\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(200);
        assertEquals(key, as("auditor2").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getString("sealKey"));
        assertEquals(1, AuditRow.list("uri = ? AND method = 'audit/cases/add-search' AND detail LIKE ?", AuditCase.uriOf(id),
                "%; name hmac-sha256=" + hmac(key, SEARCH_NAME) + ";%").size());

        try (var app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
            var e = assertThrows(SQLException.class, () -> app.createStatement().executeUpdate(
                    "UPDATE audit_case SET seal_key = decode(repeat('00', 32), 'hex') WHERE id = " + id));
            assertTrue(e.getMessage().contains("set once"), e.getMessage());
            e = assertThrows(SQLException.class, () -> app.createStatement().executeUpdate("UPDATE audit_case SET title = 'x' WHERE id = " + id));
            assertTrue(e.getMessage().contains("permission denied"), e.getMessage());
        }
        assertEquals(key, as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getString("sealKey"));
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

        for (String secret : List.of(TITLE, DESCRIPTION, NOTE, SEARCH_NAME, HOLD_TARGET, HOLD_REASON, RELEASE_REASON)) {
            assertFalse(stored.contains(sha256(secret)), "the SHA-256 of " + secret + " on record: " + stored);
        }

        // Each record binds what was stored: the note's record holds its id and HMAC under the case's key, as the case shows them.
        var c = as("auditor2").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        String key = c.getString("sealKey");
        long noteId = c.getLong("notes[0].id");
        assertEquals(hmac(key, NOTE), c.getString("notes[0].hmac"));
        var note = rows.stream().filter(r -> r.method.equals("audit/cases/add-note")).findFirst().orElseThrow();
        assertEquals("added note " + noteId + "; text hmac-sha256=" + hmac(key, NOTE), note.detail);
        var opened = rows.stream().filter(r -> r.method.equals("audit/cases/create")).findFirst().orElseThrow();
        assertEquals("opened case " + id + "; title hmac-sha256=" + hmac(key, TITLE) + "; description hmac-sha256="
                + hmac(key, DESCRIPTION) + "; members [auditor, auditor2]", opened.detail);
        var put = rows.stream().filter(r -> r.method.equals("audit/cases/hold/put")).findFirst().orElseThrow();
        assertTrue(put.detail.endsWith("; target hmac-sha256=" + hmac(key, HOLD_TARGET) + "; reason hmac-sha256=" + hmac(key, HOLD_REASON)),
                put.detail);
        var asked = rows.stream().filter(r -> r.method.equals("audit/cases/hold/ask-release")).findFirst().orElseThrow();
        assertTrue(asked.detail.contains("; reason hmac-sha256=" + hmac(key, RELEASE_REASON) + ";"), asked.detail);
        var search = rows.stream().filter(r -> r.method.equals("audit/cases/add-search")).findFirst().orElseThrow();
        assertTrue(search.detail.endsWith("; name hmac-sha256=" + hmac(key, SEARCH_NAME) + "; filters hmac-sha256="
                + hmac(key, c.getString("searches[0].query"))), search.detail);
        // A member of another case holds another key.
        long other = as("auditor").body("{\"title\":\"" + TITLE + "\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        String otherKey = as("auditor").get("/audit/cases/" + other).then().statusCode(200).extract().jsonPath().getString("sealKey");
        assertFalse(otherKey.equals(key));
        assertEquals(1, AuditRow.list("uri = ? AND method = 'audit/cases/create' AND detail LIKE ?", AuditCase.uriOf(other),
                "%title hmac-sha256=" + hmac(otherKey, TITLE) + ";%").size());
    }
}
