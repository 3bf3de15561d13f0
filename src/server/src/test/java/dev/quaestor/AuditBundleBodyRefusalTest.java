package dev.quaestor;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An evidence bundle's body that cannot be taken is refused 400 in the call's own words: no selection ("give request
 * ids or a search"), both, a search's time or kind naming its field ({@code search.from}) and what it takes as the
 * search API does, a search whose range ends before it starts, and a body that is not JSON said so with where, never a parser's message. Nothing is made, and the
 * call's not-made record says why.
 */
@QuarkusTest
class AuditBundleBodyRefusalTest {

    private final String auditor = TestIssuer.tokenFor("auditor");

    /** The 400's error, checked to be on record as the bundle not made. */
    private String refused(String body) {
        Response r = given().header("Authorization", "Bearer " + auditor).contentType("application/json").body(body).post("/audit/bundle");
        assertEquals(400, r.statusCode(), body + ": " + r.asString());
        String error = r.jsonPath().getString("error");
        List<AuditRow> made = AuditRow.list("request_id = ? AND method = 'audit/bundle/made'", r.header("X-Request-Id"));
        assertEquals(List.of("not-made"), made.stream().map(m -> m.outcome).toList(), body);
        assertTrue(made.get(0).detail.contains(error), "why, on record: " + made.get(0).detail);
        return error;
    }

    @Test
    void noSelectionAsksForOneAndBothAreRefusedAsBoth() {
        String none = refused("{}");
        assertTrue(none.startsWith("give request ids or a search"), none);
        assertFalse(none.contains("not both"), none);
        assertTrue(refused("{\"requestIds\":[\"a\"],\"search\":{}}").contains("not both"));
    }

    @Test
    void aSearchsBadTimeOrKindNamesItsFieldAndWhatItTakes() {
        String from = refused("{\"search\":{\"from\":\"yesterday\"}}");
        assertTrue(from.startsWith("search.from must be an ISO-8601 instant, e.g. 2026-11-22T00:00:00Z"), from);
        assertTrue(from.contains("'yesterday'"), from);
        assertFalse(from.contains("could not be parsed"), "not the parser's words: " + from);
        String to = refused("{\"search\":{\"to\":\"2026-13-01\"}}");
        assertTrue(to.startsWith("search.to must be an ISO-8601 instant"), to);
        String range = refused("{\"search\":{\"subject\":\"alice\",\"from\":\"2026-11-02T00:00:00Z\",\"to\":\"2026-11-01T00:00:00Z\"}}");
        assertTrue(range.startsWith("'search.from' (2026-11-02T00:00:00Z) is after 'search.to' (2026-11-01T00:00:00Z)"), range);
        String kind = refused("{\"search\":{\"kind\":\"BOGUS\"}}");
        assertTrue(kind.startsWith("search.kind must be one of ") && kind.contains("AUDIT_READ") && kind.contains("'BOGUS'"), kind);
    }

    @Test
    void aBodyThatIsNotJsonIsSaidToBeSoWithWhere() {
        String error = refused("{\"requestIds\": [\"a\"");
        assertTrue(error.startsWith("the body is not JSON (at line 1, column "), error);
        String word = refused("requestIds=a");
        assertTrue(word.startsWith("the body is not JSON (at line 1, column "), word);
        assertFalse(word.contains("Unrecognized token") || word.contains("expected"), "not the parser's words: " + word);
        String unknown = refused("{\"requestIdz\":[\"a\"]}");
        assertTrue(unknown.startsWith("unknown field 'requestIdz'; the fields are forCase, requestIds, search"), unknown);
    }
}
