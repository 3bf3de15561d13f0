package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A case's history holds the records of the case's own calls and nothing a client can write: a client that asks to
 * read a case's uri has its records, but not in the case's history. The history is newest first, a page at a time,
 * and says when there is more.
 */
@QuarkusTest
class CaseHistoryTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static long openCase() {
        return as("auditor").body("{\"title\":\"History\",\"members\":[\"auditor2\"]}").post("/audit/cases").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    @Test
    void aClientAskingForACaseUriWritesNothingIntoItsHistory() {
        long id = openCase();
        long hold = as("auditor").body("{\"scope\":\"CASE\",\"from\":\"2026-01-01T00:00:00Z\",\"reason\":\"keep\"}")
                .post("/audit/cases/" + id + "/holds").then().statusCode(201).extract().jsonPath().getLong("id");
        String holdUri = AuditCase.uriOf(id) + "hold/" + hold;
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        for (int i = 0; i < 5; i++) {
            Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":" + (10 + i) + ",\"method\":\"resources/read\",\"params\":{\"uri\":\""
                    + holdUri + "\"}}").statusCode(200);
        }
        // The client's attempts are on record under the hold's uri (they are invalid access attempts, and stay so)...
        assertEquals(5, AuditRow.list("uri = ? AND kind = 'DECISION' AND subject = 'alice'", holdUri).size());
        as("auditor").body("{\"reason\":\"done\"}").post("/audit/cases/" + id + "/holds/" + hold + "/release-request").then().statusCode(200);
        as("auditor2").post("/audit/cases/" + id + "/holds/" + hold + "/release").then().statusCode(200);

        // ...but not in the case's history, which shows the release first, after the read of the history itself.
        JsonPath h = as("auditor2").get("/audit/cases/" + id + "/history").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> records = h.getList("records");
        assertTrue(records.stream().noneMatch(r -> "alice".equals(r.get("subject"))), records.toString());
        assertTrue(records.stream().allMatch(r -> List.of("ADMIN", "AUDIT_READ").contains(r.get("kind"))), records.toString());
        assertEquals("audit/cases/history", records.get(0).get("method"), records.toString());
        assertEquals("audit/cases/hold/release", records.get(1).get("method"), records.toString());
        assertEquals(List.of("audit/cases/hold/release", "audit/cases/hold/ask-release", "audit/cases/hold/put", "audit/cases/create"),
                records.stream().filter(r -> "ADMIN".equals(r.get("kind"))).map(r -> r.get("method")).toList());
        assertFalse(h.getBoolean("more"));
    }

    @Test
    void aReadOfTheHistoryIsOnRecordBeforeItReadsItsPage() {
        long id = openCase();
        JsonPath h = as("auditor2").get("/audit/cases/" + id + "/history").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> records = h.getList("records");
        // Its own record, committed before the page was read, is the newest the page lists.
        assertEquals(2, records.size(), records.toString());
        assertEquals("audit/cases/history", records.get(0).get("method"), records.toString());
        assertEquals("AUDIT_READ", records.get(0).get("kind"));
        assertEquals("ok", records.get(0).get("outcome"));
        assertEquals("auditor2", records.get(0).get("subject"));
        assertEquals("the newest page", records.get(0).get("detail"));
        assertEquals("audit/cases/create", records.get(1).get("method"));
    }

    @Test
    void aLongHistoryComesAPageAtATimeNewestFirstAndSaysWhenThereIsMore() throws Exception {
        long id = openCase();
        int reads = CaseRecords.HISTORY_PAGE + 5;
        var pool = java.util.concurrent.Executors.newFixedThreadPool(8);
        try {
            var views = new ArrayList<java.util.concurrent.Future<?>>();
            for (int i = 0; i < reads; i++) {
                views.add(pool.submit(() -> as("auditor2").get("/audit/cases/" + id).then().statusCode(200)));
            }
            for (var v : views) {
                v.get();
            }
        } finally {
            pool.shutdown();
        }
        var expected = AuditRow.list("uri LIKE ? AND kind IN ('ADMIN', 'AUDIT_READ') ORDER BY id DESC", AuditCase.uriOf(id) + "%")
                .stream().map(r -> r.requestId).toList();
        assertEquals(reads + 1, expected.size());

        JsonPath first = as("auditor").get("/audit/cases/" + id + "/history").then().statusCode(200).extract().jsonPath();
        assertEquals(CaseRecords.HISTORY_PAGE, first.getList("records").size());
        assertTrue(first.getBoolean("more"), "the history says it is cut");
        String before = first.getString("before");
        JsonPath second = as("auditor").queryParam("before", before).get("/audit/cases/" + id + "/history").then().statusCode(200)
                .extract().jsonPath();
        assertFalse(second.getBoolean("more"));
        assertNull(second.getString("before"));
        var seen = new ArrayList<String>(first.getList("records.request"));
        seen.addAll(second.getList("records.request"));
        // Newest first, every record once: the two pages are the case's records in the log, newest first, led by the read
        // of the first page itself (on record before it read the page; the read of the second page comes after its cursor).
        String firstRead = AuditRow.list("uri = ? AND method = 'audit/cases/history' AND subject = 'auditor' ORDER BY id",
                AuditCase.uriOf(id)).get(0).requestId;
        assertEquals(firstRead, seen.get(0));
        assertEquals(expected, seen.subList(1, seen.size()));
        as("auditor").queryParam("before", "not-a-cursor").get("/audit/cases/" + id + "/history").then().statusCode(400);
        // Each page read is on record with the page it asked for.
        assertEquals(List.of("the newest page", "the page before " + before), AuditRow.list("uri = ? AND method = 'audit/cases/history'"
                + " AND subject = 'auditor' AND outcome = 'ok' ORDER BY id", AuditCase.uriOf(id)).stream().map(r -> r.detail).toList());
    }
}
