package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Answers that carry content or audit data tell every cache not to keep them and browsers not to guess their type:
 * a read's content, the auditor API's search, export and proof, the administrator's policy, and the refusals at those
 * doors too.
 */
@QuarkusTest
class NoStoreTest {

    private static void noStore(String what, ExtractableResponse<Response> r) {
        assertEquals("no-store", r.header("Cache-Control"), what + " (" + r.statusCode() + ")");
        assertEquals("nosniff", r.header("X-Content-Type-Options"), what + " (" + r.statusCode() + ")");
    }

    @Test
    void contentAndAuditAnswersAreNotKept() {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        noStore("a read", Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":"
                + "{\"uri\":\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200).extract());
        String auditor = TestIssuer.tokenFor("auditor");
        noStore("a search", given().header("Authorization", "Bearer " + auditor).queryParam("subject", "alice").get("/audit/search").then()
                .statusCode(200).extract());
        noStore("an export", given().header("Authorization", "Bearer " + auditor).queryParam("format", "csv").queryParam("subject", "alice").get("/audit/export").then()
                .extract());
        noStore("the policy", given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).get("/admin/policy").then()
                .statusCode(200).extract());
        noStore("a refused token", given().header("Authorization", "Bearer nope").get("/audit/search").then().statusCode(401)
                .extract());
    }
}
