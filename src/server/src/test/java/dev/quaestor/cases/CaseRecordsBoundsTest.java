package dev.quaestor.cases;

import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.LongReadConfig;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A view of a case's records costs a bounded amount however much the case holds: a bounded number of searches counted
 * (the others on demand), its requests' records read in one bounded query, the bundle's requests gathered only until
 * there are too many; and each view holds a place for a long read, so one member of staff viewing cases over and over
 * is turned away (429) while another's searches and views go on.
 */
@QuarkusTest
class CaseRecordsBoundsTest {

    @Inject
    LongReads longReads;

    @Inject
    LongReadConfig longReadConfig;

    @Inject
    CaseRecords caseRecords;

    @Inject
    AuditSearch search;

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static long openCase(String title) {
        return as("auditor").body("{\"title\":\"" + title + "\",\"members\":[\"auditor2\"]}").post("/audit/cases").then().statusCode(201)
                .extract().jsonPath().getLong("id");
    }

    private static String aliceReads() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-06-18");
        return Rpc.read(token, session, "file:///docs/trials/onco-734/summary.md").statusCode(200).extract().header("X-Request-Id");
    }

    @Test
    void aViewCountsTheFirstSearchesAndTheOthersOnDemand() {
        long id = openCase("Many searches");
        int searches = CaseRecords.COUNTED_SEARCHES + 2;
        for (int i = 0; i < searches; i++) {
            as("auditor").body("{\"name\":\"s" + i + "\",\"query\":\"subject=alice\"}").post("/audit/cases/" + id + "/searches")
                    .then().statusCode(200);
        }
        JsonPath records = as("auditor").get("/audit/cases/" + id + "/records").then().statusCode(200).extract().jsonPath();
        List<Boolean> counted = records.getList("searches.counted");
        assertEquals(searches, counted.size());
        assertEquals(CaseRecords.COUNTED_SEARCHES, counted.stream().filter(c -> c).count(), records.prettify());
        assertEquals(List.of(false, false), counted.subList(CaseRecords.COUNTED_SEARCHES, searches));
        assertTrue(records.getBoolean("requestsComplete"));

        // An uncounted search is counted on demand, as the counted ones are.
        long last = records.getLong("searches[" + (searches - 1) + "].id");
        JsonPath one = as("auditor").get("/audit/cases/" + id + "/searches/" + last + "/count").then().statusCode(200).extract().jsonPath();
        assertTrue(one.getBoolean("counted"));
        long now = AuditRow.list("subject = 'alice'").size();
        assertTrue(one.getLong("records") >= records.getLong("searches[0].records") && one.getLong("records") <= now, one.prettify());
        as("auditor").get("/audit/cases/" + id + "/searches/999999999/count").then().statusCode(404);
    }

    @Test
    void oneWhoViewsOverAndOverIsTurnedAwayWhileAnotherStillWorks() {
        long id = openCase("Viewed over and over");
        // The auditor's own views already running hold every place one person may hold.
        var held = new ArrayList<LongReads.Place>();
        try {
            for (int i = 0; i < longReadConfig.caseReadsPerPerson(); i++) {
                var attempt = longReads.take(LongReads.Kind.CASE, "auditor");
                assertNotNull(attempt.place(), "a place for view " + i);
                held.add(attempt.place());
            }
            var busy = as("auditor").get("/audit/cases/" + id + "/records").then().statusCode(429).extract();
            assertNotNull(busy.header("Retry-After"));
            assertEquals(1, AuditRow.list("subject = 'auditor' AND method = 'audit/cases/records' AND outcome = 'busy' AND decision = 'ALLOW'"
                    + " AND request_id = ? AND uri = ?", busy.header("X-Request-Id"), AuditCase.uriOf(id)).size(), "the refusal is on record");
            as("auditor").get("/audit/cases/" + id + "/searches/1/count").then().statusCode(429);
            // Another member of staff is not held up: their view of the case, and their search of the log.
            as("auditor2").get("/audit/cases/" + id + "/records").then().statusCode(200);
            as("auditor2").queryParam("limit", 5).get("/audit/search").then().statusCode(200);
        } finally {
            held.forEach(LongReads.Place::close);
        }
        as("auditor").get("/audit/cases/" + id + "/records").then().statusCode(200);
    }

    @Test
    void theRequestsRecordsAreReadInOneBoundedQuery() {
        String a = aliceReads();
        String b = aliceReads();
        var all = search.recordsOfRequests(List.of(a, b), 10);
        assertEquals(4, all.records().size(), all.toString());
        assertNull(all.nextCursor());
        var cut = search.recordsOfRequests(List.of(a, b), 3);
        assertEquals(3, cut.records().size());
        assertNotNull(cut.nextCursor(), "it says there were more");
    }

    @Test
    void theBundlesRequestsAreGatheredOnlyUntilThereAreTooMany() {
        // A search of all of alice's records finds more than one: read, it would be refused as too wide. With the case's own
        // requests already past the most a bundle holds, it is not read at all.
        aliceReads();
        var now = Instant.now();
        var requests = List.of(new CaseView.Request("r1", "auditor", now), new CaseView.Request("r2", "auditor", now),
                new CaseView.Request("r3", "auditor", now));
        var wide = new CaseView.Search(1, "all of alice", "subject=alice", "auditor", now);
        var c = new CaseView(1, "t", null, "auditor", now, null, List.of(), List.of(wide), requests, List.of());
        assertEquals(List.of("r1", "r2", "r3"), caseRecords.requestIds(c, 1, 2));
        var within = new CaseView(1, "t", null, "auditor", now, null, List.of(), List.of(wide), requests.subList(0, 1), List.of());
        try {
            caseRecords.requestIds(within, 1, 2);
            throw new AssertionError("the wide search was read and found more than one record");
        } catch (CaseRefusal r) {
            assertTrue(r.getMessage().contains("the case's search 1 of 1 finds more than 1 records"), r.getMessage());
            assertFalse(r.getMessage().contains("all of alice"), "a search's name is case text, never on record: " + r.getMessage());
        }
    }
}
