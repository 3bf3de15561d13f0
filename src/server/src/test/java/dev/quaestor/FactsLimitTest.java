package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facts an {@code /audit/facts} call gathers are held whole before its answer starts, so they are bounded
 * ({@code quaestor.audit.facts-limit}): past the limit the call is refused with 413 and a reason, on record as let in
 * and then, under the same request id, as {@code too-large}, and a narrower window is answered. What-if, which gathers the same facts, is bounded alike.
 */
@QuarkusTest
@TestProfile(FactsLimitTest.Profile.class)
class FactsLimitTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.audit.facts-limit", "3");
        }
    }

    private static final String[] URIS = {"file:///docs/trials/onco-734/summary.md",
        "file:///docs/trials/onco-734/raw/sample-001.bin", "file:///docs/handbook/welcome.md", "file:///docs/public/logo.png"};

    @Test
    void aWindowWithMoreFactsThanTheLimitIsRefusedAndANarrowerOneAnswered() {
        Instant from = Instant.now().minusSeconds(1);
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (String uri : URIS) {
            Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}")
                    .statusCode(200);
        }
        Instant to = Instant.now().plusSeconds(1);
        String auditor = "Bearer " + TestIssuer.tokenFor("auditor");

        String factsCall = given().header("Authorization", auditor).get("/audit/facts?from=" + from + "&to=" + to).then()
                .statusCode(413).body("error", containsString("quaestor.audit.facts-limit")).extract().header("X-Request-Id");
        assertEquals(1, AuditRow.list("kind = 'AUDIT_READ' AND method = 'audit/facts' AND outcome = 'too-large' AND event_time >= ?",
                java.sql.Timestamp.from(from)).size(), "the refusal is on record");
        letInThenTooLarge(factsCall, "AUDIT_READ", "audit/facts");

        // A window with none of them (after the reads) is answered.
        Instant later = Instant.now().plusSeconds(2);
        given().header("Authorization", auditor).get("/audit/facts?from=" + later + "&to=" + later.plusSeconds(60)).then()
                .statusCode(200);

        // What-if replays the same facts, held whole: bounded alike, and its refusal on record after its admission.
        String admin = "Bearer " + TestIssuer.tokenFor("admin");
        var proposed = Map.of("files", Map.of("a.yaml", "apiVersion: quaestor/v1\nkind: Policy\nrules: []\n"),
                "from", from.toString(), "to", to.toString());
        String whatIfCall = given().header("Authorization", admin).contentType("application/json").body(proposed)
                .post("/admin/policy/what-if").then().statusCode(413).body("error", containsString("quaestor.audit.facts-limit"))
                .extract().header("X-Request-Id");
        assertEquals(1, AuditRow.list("kind = 'ADMIN' AND method = 'admin/policy/what-if' AND outcome = 'too-large'"
                + " AND event_time >= ?", java.sql.Timestamp.from(from)).size(), "the refusal is on record");
        letInThenTooLarge(whatIfCall, "ADMIN", "admin/policy/what-if");
        given().header("Authorization", admin).contentType("application/json")
                .body(Map.of("files", proposed.get("files"), "since", "1000000000000d")).post("/admin/policy/what-if")
                .then().statusCode(400).body("error", containsString("earliest"));
    }

    /**
     * The refused call's records, by the request id its 413 carries: let in ({@code ok}), then not answered
     * ({@code too-large}), both {@code ALLOW}: the {@code ok} does not stand alone for an answer not given.
     */
    private static void letInThenTooLarge(String requestId, String kind, String method) {
        assertNotNull(requestId, "the 413 names the call's records");
        List<AuditRow> rows = AuditRow.list("request_id = ? ORDER BY id", requestId);
        assertEquals(List.of("ok", "too-large"), rows.stream().map(r -> r.outcome).toList(), rows.toString());
        for (AuditRow r : rows) {
            assertEquals(kind, r.kind);
            assertEquals(method, r.method);
            assertEquals("ALLOW", r.decision);
        }
        assertTrue(rows.get(1).detail.contains("quaestor.audit.facts-limit"), rows.get(1).detail);
    }
}
