package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Hmac;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cases through the auditor API: a case is seen only by its members and the case administrator role; every change
 * (and every refused one) is an audit record under the case's uri, which is also its history; its records are
 * counted from the log; bad input is refused with a reason and changes nothing.
 */
@QuarkusTest
class CaseApiTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static long open(String user, String title, String... members) {
        String body = "{\"title\":\"" + title + "\",\"description\":\"why\",\"members\":[" + String.join(",",
                java.util.Arrays.stream(members).map(m -> "\"" + m + "\"").toList()) + "]}";
        return as(user).body(body).post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** A read of a document by alice: its request id (DECISION and OUTCOME records). */
    private static String aliceReads() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        return Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200)
                .extract().header("X-Request-Id");
    }

    private static List<AuditRow> onRecord(long id) {
        return AuditRow.list("uri = ? ORDER BY id", AuditCase.uriOf(id));
    }

    @Test
    void aCaseIsSeenOnlyByItsMembersAndTheCaseAdministrators() {
        long id = open("auditor", "Seen by members", "auditor2");
        as("auditor2").get("/audit/cases/" + id).then().statusCode(200).body("title", equalTo("Seen by members"));
        as("auditor2").get("/audit/cases").then().statusCode(200).body("cases.id", hasItem((int) id));
        as("caseadmin").get("/audit/cases/" + id).then().statusCode(200);
        as("caseadmin").get("/audit/cases").then().statusCode(200).body("cases.id", hasItem((int) id));
        // Another auditor, not a member: the case does not exist for them, not in the list, not by id, not to change.
        as("auditor3").get("/audit/cases").then().statusCode(200).body("cases.id", not(hasItem((int) id)));
        String absent = as("auditor3").get("/audit/cases/" + id).then().statusCode(404).extract().path("error");
        String none = as("auditor3").get("/audit/cases/999999999").then().statusCode(404).extract().path("error");
        assertEquals(absent.replace(Long.toString(id), "N"), none.replace("999999999", "N"), "the same answer as for no case");
        as("auditor3").body("{\"text\":\"let me in\"}").post("/audit/cases/" + id + "/notes").then().statusCode(404);
        // No staff role at all: 403, also on record.
        as("carol").get("/audit/cases").then().statusCode(403);
        as("carol").body("{\"title\":\"x\"}").post("/audit/cases").then().statusCode(403);
        var carol = AuditRow.list("subject = 'carol' AND method LIKE 'audit/cases/%' ORDER BY id");
        assertTrue(carol.stream().anyMatch(r -> r.method.equals("audit/cases/create") && r.kind.equals("ADMIN")
                && r.outcome.equals("forbidden") && r.decision.equals("DENY")), carol.toString());

        var rows = onRecord(id);
        assertTrue(rows.stream().anyMatch(r -> r.subject.equals("auditor3") && r.method.equals("audit/cases/open")
                && r.outcome.equals("not-found") && r.decision.equals("DENY")), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.subject.equals("auditor3") && r.method.equals("audit/cases/add-note")
                && r.kind.equals("ADMIN") && r.outcome.equals("not-found")), rows.toString());
        assertEquals(List.of(), as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getList("notes"),
                "the refused note was not stored");
    }

    @Test
    void theCaseAdministratorRoleManagesMembersButNeitherAddsToNorReadsWhatACaseFinds() {
        String rid = aliceReads();
        long id = open("auditor", "Members only for the case administrator", "auditor2");
        as("auditor").body("{\"name\":\"alice\",\"query\":\"subject=alice\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(200);

        // What reads the audit log through a case is the auditor's: refused with a reason, each refusal on record.
        String error = as("caseadmin").body("{\"name\":\"bob\",\"query\":\"subject=bob\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(403).extract().path("error");
        assertTrue(error.contains("quaestor-auditor"), error);
        as("caseadmin").body("{\"requestId\":\"" + rid + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(403);
        as("caseadmin").get("/audit/cases/" + id + "/records").then().statusCode(403);
        var refused = onRecord(id).stream().filter(r -> r.subject.equals("caseadmin")).toList();
        assertEquals(List.of("audit/cases/add-search", "audit/cases/add-request", "audit/cases/records"),
                refused.stream().map(r -> r.method).toList(), refused.toString());
        assertEquals(List.of("ADMIN", "ADMIN", "AUDIT_READ"), refused.stream().map(r -> r.kind).toList());
        assertTrue(refused.stream().allMatch(r -> r.decision.equals("DENY") && r.outcome.equals("forbidden")), refused.toString());

        // Members, the case itself and its history stay theirs to manage and read.
        as("caseadmin").body("{\"member\":\"auditor3\"}").post("/audit/cases/" + id + "/members").then().statusCode(200);
        as("caseadmin").get("/audit/cases/" + id + "/history").then().statusCode(200);
        var c = as("caseadmin").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("subject=alice"), c.getList("searches.query"), "the refused search was not stored");
        assertEquals(List.of(), c.getList("requests"), "nor the refused request");
        assertEquals(List.of("auditor", "auditor2", "auditor3"), c.getList("members.member"));
        // An auditor who is a member still reads the records.
        as("auditor3").get("/audit/cases/" + id + "/records").then().statusCode(200);
    }

    @Test
    void everyChangeIsOnRecordAndIsTheCaseHistory() {
        String rid = aliceReads();
        long id = open("auditor", "Alice and the trial summary");
        as("auditor").body("{\"member\":\"auditor2\"}").post("/audit/cases/" + id + "/members").then().statusCode(200);
        as("auditor2").body("{\"name\":\"alice in trials\",\"query\":\"subject=alice&uriPrefix=file%3A%2F%2F%2Fdocs%2Ftrials%2F\"}")
                .post("/audit/cases/" + id + "/searches").then().statusCode(200);
        as("auditor2").body("{\"requestId\":\"" + rid + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(200);
        as("auditor").body("{\"text\":\"Alice read the summary before the trial opened.\"}").post("/audit/cases/" + id + "/notes")
                .then().statusCode(200);

        ValidatableResponse c = as("auditor2").get("/audit/cases/" + id).then().statusCode(200);
        c.body("members.member", equalTo(List.of("auditor", "auditor2")))
                .body("searches[0].query", equalTo("subject=alice&uriPrefix=file%3A%2F%2F%2Fdocs%2Ftrials%2F"))
                .body("requests[0].requestId", equalTo(rid)).body("requests[0].addedBy", equalTo("auditor2"))
                .body("notes[0].author", equalTo("auditor")).body("notes[0].text", equalTo("Alice read the summary before the trial opened."));

        // Its records, counted from the log: the read's DECISION and OUTCOME, and the search's matches.
        var records = as("auditor2").get("/audit/cases/" + id + "/records").then().statusCode(200).extract().jsonPath();
        assertEquals(2, records.getInt("requests[0].count"), records.prettify());
        assertEquals(List.of("DECISION", "OUTCOME"), records.getList("requests[0].records.kind"), records.prettify());
        long matched = AuditRow.list("subject = 'alice' AND uri LIKE 'file:///docs/trials/%'").size();
        assertTrue(records.getLong("searches[0].records") >= 2, records.prettify());
        assertTrue(records.getLong("searches[0].records") <= matched, records.prettify());

        // Every change on record, as ADMIN under the case's uri, by whom, in order; the history answers the same records.
        var changes = onRecord(id).stream().filter(r -> r.kind.equals("ADMIN")).toList();
        assertEquals(List.of("audit/cases/create", "audit/cases/add-member", "audit/cases/add-search", "audit/cases/add-request",
                "audit/cases/add-note"), changes.stream().map(r -> r.method).toList(), changes.toString());
        assertEquals(List.of("auditor", "auditor", "auditor2", "auditor2", "auditor"), changes.stream().map(r -> r.subject).toList());
        assertTrue(changes.stream().allMatch(r -> r.decision.equals("ALLOW") && r.outcome.equals("ok")));
        assertTrue(changes.get(3).detail.equals("added request " + rid), changes.get(3).detail);
        // The note's text stays in the case: its record holds its id and the HMAC of its text under the case's key, as
        // the case shows them.
        assertTrue(!changes.get(4).detail.contains("before the trial opened"), changes.get(4).detail);
        String key = c.extract().jsonPath().getString("sealKey");
        String hmac = Hmac.sha256(key, "Alice read the summary before the trial opened.");
        assertEquals(hmac, c.extract().jsonPath().getString("notes[0].hmac"));
        assertEquals("added note " + c.extract().jsonPath().getLong("notes[0].id") + "; text hmac-sha256=" + hmac, changes.get(4).detail);
        List<Map<String, String>> history = as("auditor2").get("/audit/cases/" + id + "/history").then().statusCode(200)
                .extract().jsonPath().getList("records");
        var historyChanges = history.stream().filter(r -> "ADMIN".equals(r.get("kind"))).toList();
        // The history is newest first.
        var newestFirst = new java.util.ArrayList<>(changes.stream().map(r -> r.requestId).toList());
        java.util.Collections.reverse(newestFirst);
        assertEquals(newestFirst, historyChanges.stream().map(r -> r.get("request")).toList());
        // The reads of the case are on record too.
        assertTrue(onRecord(id).stream().anyMatch(r -> r.kind.equals("AUDIT_READ") && r.method.equals("audit/cases/records")
                && r.subject.equals("auditor2")));

        // A member removed no longer sees it; the removal is on record.
        as("auditor").delete("/audit/cases/" + id + "/members/auditor2").then().statusCode(200);
        as("auditor2").get("/audit/cases/" + id).then().statusCode(404);
        assertTrue(onRecord(id).stream().anyMatch(r -> r.method.equals("audit/cases/remove-member") && r.outcome.equals("ok")
                && r.detail.equals("removed member auditor2")));
    }

    /** No column holds a NUL (PostgreSQL's text has none): what staff type with one is refused, never a server error. */
    @Test
    void textWithANulCharacterIsRefusedNotAServerError() {
        long id = open("auditor", "NUL input");
        String nul = "\\u0000";
        // The body's own NUL characters are refused as every staff API's are, naming the field; one a search's filter spells is the search's.
        List<String[]> asked = List.of(new String[] {"/audit/cases", "{\"title\":\"t" + nul + "\"}", "field 'title'"},
                new String[] {"/audit/cases", "{\"title\":\"t\",\"members\":[\"m" + nul + "\"]}", "field 'members[0]'"},
                new String[] {"/audit/cases/" + id + "/notes", "{\"text\":\"n" + nul + "\"}", "field 'text'"},
                new String[] {"/audit/cases/" + id + "/members", "{\"member\":\"m" + nul + "\"}", "field 'member'"},
                new String[] {"/audit/cases/" + id + "/searches", "{\"name\":\"s" + nul + "\",\"query\":\"subject=a\"}", "field 'name'"},
                new String[] {"/audit/cases/" + id + "/searches", "{\"name\":\"s\",\"query\":\"subject=a%00\"}",
                        "search filter 'subject'"},
                new String[] {"/audit/cases/" + id + "/requests", "{\"requestId\":\"r" + nul + "\"}", "field 'requestId'"},
                new String[] {"/audit/cases/" + id + "/holds", "{\"scope\":\"SUBJECT\",\"target\":\"al" + nul + "ice\","
                        + "\"from\":\"2026-01-01T00:00:00Z\",\"reason\":\"r\"}", "field 'target'"});
        for (String[] a : asked) {
            String error = as("auditor").body(a[1]).post(a[0]).then().statusCode(400).extract().path("error");
            assertTrue(error.startsWith(a[2] + " holds a NUL character"), a[1] + ": " + error);
        }
        var c = as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(0, c.getList("searches").size() + c.getList("requests").size() + c.getList("notes").size());
        assertEquals(List.of("auditor"), c.getList("members.member"));
    }

    /**
     * Half of a UTF-16 surrogate pair without the other ({@code \ud800}) is no text: PostgreSQL kept a {@code ?} in its
     * place while the answer echoed the half, and a note, which can never be changed, lost it for good. Refused, naming
     * the field; a whole pair (an emoji) is kept as sent.
     */
    @Test
    void textWithHalfASurrogatePairIsRefusedNotAltered() {
        long id = open("auditor", "Surrogate input");
        for (String[] a : List.of(new String[] {"/audit/cases", "{\"title\":\"\\ud800\"}", "field 'title'"},
                new String[] {"/audit/cases/" + id + "/notes", "{\"text\":\"evidence \\udc00 lost\"}", "field 'text'"})) {
            String error = as("auditor").body(a[1]).post(a[0]).then().statusCode(400).extract().path("error");
            assertTrue(error.startsWith(a[2] + " holds half of a UTF-16 surrogate pair"), a[1] + ": " + error);
        }
        as("auditor").body("{\"text\":\"kept \\ud83d\\ude00\"}").post("/audit/cases/" + id + "/notes").then().statusCode(200);
        var c = as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("kept \ud83d\ude00"), c.getList("notes.text"));
    }

    @Test
    void badInputIsRefusedWithAReasonAndChangesNothing() {
        long id = open("auditor", "Bad input");
        String error = as("auditor").body("{\"name\":\"x\",\"query\":\"subjekt=alice\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(400).extract().path("error");
        assertTrue(error.contains("unknown search filter 'subjekt'"), error);
        error = as("auditor").body("{\"name\":\"x\",\"query\":\"from=yesterday\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(400).extract().path("error");
        assertTrue(error.contains("'from' is not a time"), error);
        error = as("auditor").body("{\"requestId\":\"no-such-request\"}").post("/audit/cases/" + id + "/requests")
                .then().statusCode(400).extract().path("error");
        assertTrue(error.contains("no record of request no-such-request"), error);
        as("auditor").body("{\"text\":\"   \"}").post("/audit/cases/" + id + "/notes").then().statusCode(400);
        as("auditor").body("{\"member\":\"auditor\"}").post("/audit/cases/" + id + "/members").then().statusCode(409);
        as("auditor").delete("/audit/cases/" + id + "/members/auditor").then().statusCode(409);
        as("auditor").body("{\"title\":\" \"}").post("/audit/cases").then().statusCode(400);

        var c = as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(0, c.getList("searches").size());
        assertEquals(0, c.getList("requests").size());
        assertEquals(0, c.getList("notes").size());
        assertEquals(List.of("auditor"), c.getList("members.member"));
        var refused = onRecord(id).stream().filter(r -> r.decision.equals("DENY")).toList();
        assertEquals(5, refused.size(), refused.toString());
        assertTrue(refused.stream().allMatch(r -> r.kind.equals("ADMIN")), refused.toString());
        // A request is looked for in the log only once its adding is on record: let in, then not stored.
        var request = onRecord(id).stream().filter(r -> r.method.equals("audit/cases/add-request")).toList();
        assertEquals(List.of("ALLOW/ok", "ALLOW/invalid"), request.stream().map(r -> r.decision + "/" + r.outcome).toList());
        assertEquals(request.get(0).requestId, request.get(1).requestId);
    }
}
