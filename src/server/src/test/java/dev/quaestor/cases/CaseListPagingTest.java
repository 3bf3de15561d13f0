package dev.quaestor.cases;

import dev.quaestor.support.AuditRow;
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
 * The case list costs a page, not every case: a member of staff with more cases than a page sees the newest
 * {@link Cases#PAGE}, each with its counts, and a cursor to the older ones; a cursor that is not one is refused and on
 * record, and each page read is on record with the page it asked for.
 */
@QuarkusTest
class CaseListPagingTest {

    private static RequestSpecification as(String token) {
        return given().header("Authorization", "Bearer " + token).contentType("application/json");
    }

    @Test
    void aLongCaseListComesAPageAtATimeNewestFirstWithItsCounts() {
        // An auditor of this test's own, so that no other test's cases are in the list.
        String subject = "pager-" + System.nanoTime();
        String token = TestIssuer.sign(TestIssuer.claims(subject).claim("realm_access", Map.of("roles", List.of("quaestor-auditor"))));
        var made = new ArrayList<Long>();
        for (int i = 0; i < Cases.PAGE + 2; i++) {
            made.add(as(token).body("{\"title\":\"case " + i + "\",\"members\":[" + (i == 0 ? "\"erin\"" : "") + "]}")
                    .post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id"));
        }
        long first = made.get(0);
        as(token).body("{\"text\":\"a note\"}").post("/audit/cases/" + first + "/notes").then().statusCode(200);
        List<Long> newestFirst = new ArrayList<>(made);
        java.util.Collections.reverse(newestFirst);

        JsonPath page = as(token).get("/audit/cases").then().statusCode(200).extract().jsonPath();
        assertEquals(newestFirst.subList(0, Cases.PAGE), page.getList("cases.id", Long.class));
        assertTrue(page.getBoolean("more"));
        String before = page.getString("before");
        assertEquals(Long.toString(newestFirst.get(Cases.PAGE - 1)), before);

        JsonPath older = as(token).get("/audit/cases?before=" + before).then().statusCode(200).extract().jsonPath();
        assertEquals(newestFirst.subList(Cases.PAGE, Cases.PAGE + 2), older.getList("cases.id", Long.class));
        assertFalse(older.getBoolean("more"));
        assertNull(older.get("before"));
        // Counted in the database: the first case has two members and a note.
        Map<String, Object> oldest = older.getMap("cases.find { it.id == " + first + " }");
        assertEquals(List.of(2, 0, 0, 1), List.of(oldest.get("members"), oldest.get("searches"), oldest.get("requests"), oldest.get("notes")));
        assertEquals("case 0", oldest.get("title"));

        String error = as(token).get("/audit/cases?before=soon").then().statusCode(400).extract().path("error");
        assertTrue(error.contains("'before' is not a cursor of the case list"), error);
        as(token).get("/audit/cases?before=-3").then().statusCode(400);

        var reads = AuditRow.list("subject = ? AND method = 'audit/cases/list' ORDER BY id", subject);
        assertEquals(List.of("ALLOW/ok/" + Cases.PAGE + " case(s), the newest", "ALLOW/ok/2 case(s) before case " + before,
                "DENY/invalid/'before' is not a cursor of the case list: soon", "DENY/invalid/'before' is not a cursor of the case list: -3"),
                reads.stream().map(r -> r.decision + "/" + r.outcome + "/" + r.detail).toList());
    }
}
