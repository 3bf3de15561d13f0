package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasLength;

@QuarkusTest
class PolicyAdminTest {

    private static final String RAW = "{\"subject\":\"alice\",\"roles\":[\"principal-investigator\"],\"scopes\":[\"resources:read\"],"
            + "\"action\":\"read\",\"uri\":\"file:///docs/trials/onco-734/raw/sample-001.bin\"}";

    @Test
    void explainGivesDecisionRulesOverriddenAllowsAndRevision() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json").body(RAW)
                .post("/admin/policy/explain").then().statusCode(200)
                .body("decision", equalTo("deny"))
                .body("rules", contains("no-raw-genomics"))
                .body("overriddenAllows", contains("pi-read-trials"))
                .body("revision", hasLength(64))
                .body("namedByNoRule", org.hamcrest.Matchers.empty());
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("principal-investigator", "principle-investigator")).post("/admin/policy/explain").then().statusCode(200)
                .body("decision", equalTo("deny")).body("namedByNoRule", contains("role principle-investigator"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("raw/sample-001.bin", "summary.md")).post("/admin/policy/explain").then().statusCode(200)
                .body("decision", equalTo("allow")).body("rules", contains("pi-read-trials"));
    }

    /** A rule with a time window may answer differently an hour later, so the answer says when it was judged. */
    @Test
    void explainSaysTheInstantItJudgedAt() {
        java.time.Instant before = java.time.Instant.now();
        String now = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW).post("/admin/policy/explain").then().statusCode(200).extract().path("time");
        java.time.Instant judged = java.time.Instant.parse(now);
        org.junit.jupiter.api.Assertions.assertFalse(judged.isBefore(before) || judged.isAfter(java.time.Instant.now()), now);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("}", ",\"time\":\"2026-03-04T22:15:00Z\"}")).post("/admin/policy/explain").then().statusCode(200)
                .body("time", equalTo("2026-03-04T22:15:00Z"));
    }

    @Test
    void explainIsForAdministratorsOnly() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("alice")).contentType("application/json").body(RAW)
                .post("/admin/policy/explain").then().statusCode(403);
        given().contentType("application/json").body(RAW).post("/admin/policy/explain").then().statusCode(401);
    }

    /** An answer names the record of its question, as a refusal does. */
    @Test
    void explainsAnswerNamesItsRecord() {
        var answer = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json").body(RAW)
                .post("/admin/policy/explain");
        assertEquals(200, answer.statusCode(), answer.asString());
        var row = dev.quaestor.support.AuditRow.first("request_id = ?", answer.header("X-Request-Id"));
        assertEquals("admin/policy/explain", row.method);
    }

    @Test
    void explainRejectsBadQuestions() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("file:///docs/trials", "file:///../trials")).post("/admin/policy/explain").then().statusCode(400);
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("\"read\"", "\"write\"")).post("/admin/policy/explain").then().statusCode(400);
        // A null among the roles is a question without that role's name: refused as such, not a server error.
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("[\"principal-investigator\"]", "[null]")).post("/admin/policy/explain").then().statusCode(400)
                .body("error", equalTo("roles holds null: give each as a string, or leave it out"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("[\"principal-investigator\"]", "[1]")).post("/admin/policy/explain").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.startsWith("field 'roles"));
    }

    @Test
    void statusNamesTheActiveRevision() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).get("/admin/policy").then().statusCode(200)
                .body("revision", hasLength(64)).body("state", equalTo("ok"));
    }

    /** A rule that applies to nothing mounted here (the test probe's database mount is mounted by another profile) is named. */
    @Test
    void statusNamesRulesThatApplyToNothingMounted() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).get("/admin/policy").then().statusCode(200)
                .body("warnings", org.hamcrest.Matchers.hasItem(
                        "zz-test-providers.yaml:6: rule 'probe-readers' (allow) names only db://probe/**, which no mount serves"))
                .body("warnings", org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.not(
                        org.hamcrest.Matchers.containsString("file:///docs/**"))));
    }

    /** An ignored field answers another question: without its roles, alice would be judged as nobody in particular. */
    @Test
    void explainRefusesAnUnknownFieldNamingIt() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("\"roles\"", "\"rolez\"")).post("/admin/policy/explain").then().statusCode(400)
                .body("field", equalTo("rolez"))
                .body("error", org.hamcrest.Matchers.startsWith("unknown field 'rolez'; the fields are action, client, groups,"));
    }

    @Test
    void explainNamesAFieldOfTheWrongTypeAndABodyThatIsNotJson() {
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("[\"principal-investigator\"]", "\"principal-investigator\"")).post("/admin/policy/explain")
                .then().statusCode(400).body("field", equalTo("roles"))
                .body("error", equalTo("field 'roles' must be an array of strings"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("}", ",\"time\":\"yesterday\"}")).post("/admin/policy/explain").then().statusCode(400)
                .body("field", equalTo("time"))
                .body("error", equalTo("field 'time' must be an ISO-8601 time with an offset, e.g. 2026-03-04T10:00:00Z"));
        // A number is not read as seconds since 1970: a time is written as one.
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(RAW.replace("}", ",\"time\":1733000000}")).post("/admin/policy/explain").then().statusCode(400)
                .body("field", equalTo("time"))
                .body("error", equalTo("field 'time' must be an ISO-8601 time with an offset, e.g. 2026-03-04T10:00:00Z"));
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("subject=alice").post("/admin/policy/explain").then().statusCode(400)
                .body("error", org.hamcrest.Matchers.startsWith("the body is not JSON (at line 1, column "));
        given().contentType("application/json").body("subject=alice").post("/admin/policy/explain").then().statusCode(401);
    }

    /** No record can hold a NUL (PostgreSQL's text has none): a body with one is refused naming where, not a server error. */
    @Test
    void explainRefusesAFieldGivenTwiceNamingIt() {
        // Read leniently, the last one would win: the answer would be bob's, to a caller who may think they asked of alice.
        String body = RAW.replace("\"subject\":\"alice\"", "\"subject\":\"alice\",\"subject\":\"bob\"");
        assertTrue(body.contains("\"bob\""), body);
        var r = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(body).post("/admin/policy/explain");
        assertEquals(400, r.statusCode(), r.asString());
        assertEquals("subject", r.jsonPath().getString("field"), r.asString());
        assertEquals("field 'subject' is given twice: give it once", r.jsonPath().getString("error"));
        var rows = AuditRow.list("request_id = ? ORDER BY id", r.header("X-Request-Id"));
        assertEquals("invalid", rows.get(rows.size() - 1).outcome, rows.toString());
    }

    @Test
    void explainRefusesANulCharacterNamingTheField() {
        for (String[] c : new String[][] {{RAW.replace("\"alice\"", "\"al\\u0000ice\""), "subject"},
                {RAW.replace("[\"principal-investigator\"]", "[\"pi\",\"\\u0000\"]"), "roles[1]"},
                {RAW.replace("\"subject\"", "\"sub\\u0000ject\""), "sub\\u0000ject"}}) {
            var r = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                    .body(c[0]).post("/admin/policy/explain");
            assertEquals(400, r.statusCode(), c[0] + ": " + r.asString());
            assertEquals(c[1], r.jsonPath().getString("field"), r.asString());
            assertEquals("field '" + c[1] + "' holds a NUL character (\\u0000): give text without one",
                    r.jsonPath().getString("error"));
            var rows = AuditRow.list("request_id = ? ORDER BY id", r.header("X-Request-Id"));
            assertEquals("invalid", rows.get(rows.size() - 1).outcome, rows.toString());
        }
    }
}
