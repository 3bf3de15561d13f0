package dev.quaestor.identity;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A signing key the issuer withdraws from its key set stops counting once the server has read the set again: tokens it
 * signed are refused (401, on record), the one already verified and cached too, while the issuer's other key still
 * counts; published again, it counts again. quarkus-oidc alone would trust it until a restart.
 */
@QuarkusTest
class WithdrawnKeyTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @Inject
    PublishedKeys keys;

    @AfterEach
    void withdrawAgain() {
        TestIssuer.publishSecondKey(false);
        keys.check();
    }

    private static int status(String token, String agent) {
        return given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).header("User-Agent", agent).body(INIT).post("/mcp").statusCode();
    }

    @Test
    void aWithdrawnKeysTokensAreRefusedCachedOnesTooAndTheOtherKeyStillCounts() throws Exception {
        String agent = "withdrawn-key-" + System.nanoTime();
        TestIssuer.publishSecondKey(true);
        keys.check();
        String cached = TestIssuer.signWithSecondKey(TestIssuer.claims("alice"));
        // A key the server has not loaded yet: quarkus-oidc loads the key set again, at most every 10 s.
        Wait.until("a token of the newly published key is accepted", Duration.ofSeconds(30), () -> status(cached, agent) == 200);
        assertEquals(200, status(cached, agent), "verified, and now served from the cache");

        TestIssuer.publishSecondKey(false);
        keys.check();
        String withdrawnAgent = agent + "-withdrawn"; // the refusals from here on, apart from any while the key was loaded
        given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + cached).header("User-Agent", withdrawnAgent).body(INIT).post("/mcp").then()
                .statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
        assertEquals(401, status(TestIssuer.signWithSecondKey(TestIssuer.claims("alice")), withdrawnAgent), "a new token of the withdrawn key");
        assertEquals(200, status(TestIssuer.sign(TestIssuer.claims("alice")), agent), "the issuer's other key still counts");
        Wait.until("the refusals on record", Duration.ofSeconds(5),
                () -> AuditRow.list("user_agent = ? and outcome = 'invalid-token'", withdrawnAgent).size() >= 2);
        var refused = AuditRow.list("user_agent = ? and outcome = 'invalid-token'", withdrawnAgent);
        assertEquals(2, refused.size(), refused.toString());
        assertTrue(refused.stream().allMatch(r -> r.kind.equals("AUTHENTICATION") && r.decision.equals("DENY") && "signing key withdrawn".equals(r.detail)));

        TestIssuer.publishSecondKey(true);
        keys.check();
        assertEquals(200, status(cached, agent), "published again, it counts again");
    }
}
