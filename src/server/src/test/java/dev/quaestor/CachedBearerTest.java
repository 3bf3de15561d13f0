package dev.quaestor;

import dev.quaestor.identity.CachedBearerAuthentication;
import dev.quaestor.identity.VerifiedTokenCache;
import dev.quaestor.support.Repo;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A known bearer token is answered from the verified-token cache before quarkus-oidc's mechanism runs, and nothing
 * full verification refuses gets through that way: expired, altered, foreign-key and wrong-audience tokens are refused
 * as they always were, and a token verified for one OIDC tenant serves no path of another.
 */
@QuarkusTest
class CachedBearerTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    @Inject
    CachedBearerAuthentication cacheFirst;
    @Inject
    VerifiedTokenCache cache;

    private static ValidatableResponse initialize(String token) {
        return given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + token).body(INIT).when().post("/mcp").then();
    }

    private static ValidatableResponse baseline(String token) {
        return given().auth().oauth2(token).when().get("/baseline/public/logo.png").then();
    }

    @Test
    void aKnownTokenIsAnsweredBeforeQuarkusOidcAndServesTheSameBytes() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        byte[] expected = Files.readAllBytes(Repo.CONTENT.resolve("docs/public/logo.png"));
        assertArrayEquals(expected, baseline(alice).statusCode(200).extract().asByteArray(), "verified by quarkus-oidc");
        long answered = cacheFirst.answered();
        long hits = cache.hits();
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(expected, baseline(alice).statusCode(200).extract().asByteArray());
        }
        assertEquals(3, cacheFirst.answered() - answered, "answered before quarkus-oidc; " + cache.stats());
        assertEquals(3, cache.hits() - hits, "each counted as a cache hit; " + cache.stats());

        initialize(alice).statusCode(200);
        long beforeMcp = cacheFirst.answered();
        initialize(alice).statusCode(200).body("result.protocolVersion", equalTo("2025-06-18"));
        assertEquals(1, cacheFirst.answered() - beforeMcp, "/mcp too; " + cache.stats());
    }

    @Test
    void alteredForeignKeyAndWrongAudienceTokensAreRefusedAsBefore() {
        String bob = TestIssuer.tokenFor("bob");
        initialize(bob).statusCode(200);
        long answered = cacheFirst.answered();
        initialize(bob).statusCode(200);
        assertEquals(1, cacheFirst.answered() - answered, "bob's token is known: " + cache.stats());

        var refused = new LinkedHashMap<String, String>();
        String[] parts = bob.split("\\.");
        refused.put("one byte of the signature changed", parts[0] + "." + parts[1] + "." + oneCharChanged(parts[2]));
        refused.put("one byte of the payload changed", parts[0] + "." + oneCharChanged(parts[1]) + "." + parts[2]);
        refused.put("one byte of the header changed", oneCharChanged(parts[0]) + "." + parts[1] + "." + parts[2]);
        refused.put("a role claimed", parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)
                        .replace("\"clinician\"", "\"principal-investigator\"").getBytes(StandardCharsets.UTF_8)) + "." + parts[2]);
        refused.put("a byte appended", bob + "A");
        refused.put("signed by a key the issuer never published", TestIssuer.signWithForeignKey(TestIssuer.claims("bob")));
        refused.put("for another audience", TestIssuer.sign(TestIssuer.claims("bob").audience("some-other-api")));
        refused.put("expired", TestIssuer.sign(TestIssuer.claims("bob").issuedAt(Instant.now().minusSeconds(600))
                .expiresAt(Instant.now().minusSeconds(60))));
        long hits = cache.hits();
        answered = cacheFirst.answered();
        for (var token : refused.entrySet()) {
            assertNotEquals(bob, token.getValue());
            for (int attempt = 0; attempt < 2; attempt++) { // a refused token is never cached: the second is refused too
                initialize(token.getValue()).statusCode(401)
                        .header("WWW-Authenticate", containsString("Bearer resource_metadata=\""))
                        .header("WWW-Authenticate", containsString("error=\"invalid_token\""));
                baseline(token.getValue()).statusCode(401);
            }
        }
        assertEquals(0, cacheFirst.answered() - answered, "none answered from the cache; " + cache.stats());
        assertEquals(0, cache.hits() - hits, "none a cache hit; " + cache.stats());
        initialize(bob).statusCode(200);
        assertEquals(1, cacheFirst.answered() - answered, "bob's own token still is; " + cache.stats());
    }

    @Test
    void aKnownTokenStopsPassingAtItsExpiry() {
        // Long enough that the two requests before it cannot outlast it on a busy machine.
        Instant expiry = Instant.now().plusSeconds(5);
        String shortLived = TestIssuer.sign(TestIssuer.claims("alice").expiresAt(expiry));
        baseline(shortLived).statusCode(200);
        long answered = cacheFirst.answered();
        baseline(shortLived).statusCode(200);
        assertEquals(1, cacheFirst.answered() - answered, "answered from the cache while it lives; " + cache.stats());
        Awaitility.await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(100))
                .until(() -> baseline(shortLived).extract().statusCode() != 200);
        assertTrue(!Instant.now().isBefore(expiry.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)), "not refused before its expiry");
        long after = cacheFirst.answered();
        baseline(shortLived).statusCode(401);
        initialize(shortLived).statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
        assertEquals(0, cacheFirst.answered() - after, "an expired token is not answered from the cache; " + cache.stats());
    }

    @Test
    void aTokenVerifiedForTheBearerTenantDoesNotServeTheConsoleTenantsPaths() {
        String admin = TestIssuer.tokenFor("admin");
        initialize(admin).statusCode(200);
        initialize(admin).statusCode(200);
        long answered = cacheFirst.answered();
        long hits = cache.hits();
        // The console's tenant signs people in with the code flow: a bearer token there, known or not, is no session.
        for (String token : new String[] {admin, "not.a.jwt"}) {
            given().redirects().follow(false).auth().oauth2(token).when().get("/console").then()
                    .statusCode(302).header("Location", startsWith(TestIssuer.issuer()));
        }
        assertEquals(0, cacheFirst.answered() - answered, "not answered from the cache; " + cache.stats());
        assertEquals(0, cache.hits() - hits, "not a cache hit either; " + cache.stats());
    }

    /** The token with one base64url character in its middle replaced by another (so one decoded byte differs). */
    private static String oneCharChanged(String part) {
        int i = part.length() / 2;
        char c = part.charAt(i);
        return part.substring(0, i) + (c == 'A' ? 'B' : 'A') + part.substring(i + 1);
    }
}
