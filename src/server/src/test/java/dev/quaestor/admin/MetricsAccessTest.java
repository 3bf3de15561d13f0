package dev.quaestor.admin;

import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;

/**
 * {@code /q/metrics} opens to the metrics role and the administrator's role only: an AI client's token, or an
 * auditor's, is refused 403; no token is 401 with the bearer challenge, as on every other door.
 */
@QuarkusTest
class MetricsAccessTest {

    @Test
    void metricsOpenToTheMetricsAndAdministratorRolesOnly() {
        given().get("/q/metrics").then().statusCode(401).header("WWW-Authenticate", containsString("Bearer"));
        given().auth().oauth2(TestIssuer.tokenFor("alice")).get("/q/metrics").then().statusCode(403);
        given().auth().oauth2(TestIssuer.tokenFor("auditor")).get("/q/metrics").then().statusCode(403);
        given().auth().oauth2(TestIssuer.tokenFor("prometheus")).get("/q/metrics").then().statusCode(200)
                .body(containsString("quaestor_audit_queue_depth"));
        given().auth().oauth2(TestIssuer.tokenFor("admin")).get("/q/metrics").then().statusCode(200)
                .body(containsString("quaestor_audit_queue_depth"));
        // the role is read from the claims quaestor.identity.roles-claims names, not from a claim of the caller's choosing
        given().auth().oauth2(TestIssuer.sign(TestIssuer.claims("alice").claim("groups", java.util.List.of("quaestor-metrics"))))
                .get("/q/metrics").then().statusCode(403);
    }

    /** Paths nobody serves, asked without a token, leave no series behind: the endpoints' own stay counted. */
    @Test
    void refusedRequestsToMadeUpPathsAddNoUriLabels() {
        for (int i = 0; i < 120; i++) {
            given().get("/mcp/made-up-" + i).then().statusCode(401);
            given().get("/made-up-" + i).then().statusCode(401);
        }
        String admin = TestIssuer.tokenFor("admin");
        given().auth().oauth2(admin).get("/admin/policy").then().statusCode(200);
        String metrics = given().auth().oauth2(TestIssuer.tokenFor("prometheus")).get("/q/metrics").then().statusCode(200)
                .extract().asString();
        org.junit.jupiter.api.Assertions.assertFalse(metrics.contains("made-up-"), "no series of a made-up path");
        org.junit.jupiter.api.Assertions.assertTrue(metrics.contains("uri=\"/admin/policy\""), "the endpoint's own series");
    }
}
