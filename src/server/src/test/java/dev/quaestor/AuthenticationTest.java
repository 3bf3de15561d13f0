package dev.quaestor;

import dev.quaestor.support.Wait;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

@QuarkusTest
class AuthenticationTest {

    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    private static io.restassured.response.ValidatableResponse post(String token) {
        var spec = given().contentType("application/json").accept("application/json, text/event-stream").body(INIT);
        if (token != null) {
            spec = spec.header("Authorization", "Bearer " + token);
        }
        return spec.when().post("/mcp").then();
    }

    @Test
    void noTokenGets401WithResourceMetadata() {
        post(null).statusCode(401)
                .header("WWW-Authenticate", containsString("Bearer resource_metadata=\""))
                .header("WWW-Authenticate", containsString("/.well-known/oauth-protected-resource/mcp\""))
                .header("WWW-Authenticate", not(containsString("invalid_token")));
    }

    @Test
    void validTokenIsAccepted() {
        post(TestIssuer.tokenFor("alice")).statusCode(200).body("result.protocolVersion", equalTo("2025-06-18"));
    }

    @Test
    void expiredTokenGets401() {
        var claims = TestIssuer.claims("alice").issuedAt(java.time.Instant.now().minusSeconds(3600))
                .expiresAt(java.time.Instant.now().minusSeconds(60));
        post(TestIssuer.sign(claims)).statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
    }

    @Test
    void wrongAudienceGets401() {
        post(TestIssuer.sign(TestIssuer.claims("alice").audience("some-other-api"))).statusCode(401);
    }

    @Test
    void wrongIssuerGets401() {
        post(TestIssuer.sign(TestIssuer.claims("alice").issuer("http://127.0.0.1:1/realms/evil"))).statusCode(401);
    }

    @Test
    void tokenSignedByAnotherKeyGets401() {
        post(TestIssuer.signWithForeignKey(TestIssuer.claims("alice"))).statusCode(401);
    }

    @Test
    void garbageTokenGets401() {
        post("not.a.jwt").statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
    }

    @Test
    void refusedAuthenticationsAreAuditedWithoutTheToken() throws Exception {
        String forged = TestIssuer.signWithForeignKey(TestIssuer.claims("alice"));
        given().contentType("application/json").header("Authorization", "Bearer " + forged).header("User-Agent", "probe-" + forged.hashCode())
                .body(INIT).post("/mcp").then().statusCode(401);
        String ua = "probe-" + forged.hashCode();
        AuditRow[] found = {null};
        Wait.holdsWithin(Duration.ofSeconds(5), Duration.ofMillis(100), () -> (found[0] = AuditRow.first("user_agent = ?", ua)) != null);
        AuditRow row = found[0];
        org.junit.jupiter.api.Assertions.assertNotNull(row, "the refusal was audited");
        org.junit.jupiter.api.Assertions.assertEquals("AUTHENTICATION", row.kind);
        org.junit.jupiter.api.Assertions.assertEquals("invalid-token", row.outcome);
        org.junit.jupiter.api.Assertions.assertNotNull(row.sourceIp);
        org.junit.jupiter.api.Assertions.assertNull(row.subject, "an unverified token names nobody");
        String all = row.method + row.detail + row.uri + row.subject + row.client;
        org.junit.jupiter.api.Assertions.assertFalse(all.contains(forged.substring(0, 20)), "no token contents");
    }

    /**
     * A refused token's record says why, in fixed words, for whoever works out a 401 from the trail; the answer does
     * not. Nothing of the unverified token is in the record.
     */
    @Test
    void aRefusedTokensRecordSaysWhy() throws Exception {
        var now = java.time.Instant.now();
        var cases = new java.util.LinkedHashMap<String, String>();
        cases.put("expired", TestIssuer.sign(TestIssuer.claims("alice").issuedAt(now.minusSeconds(3600)).expiresAt(now.minusSeconds(60))));
        cases.put("wrong audience", TestIssuer.sign(TestIssuer.claims("alice").audience("some-other-api")));
        cases.put("wrong issuer", TestIssuer.sign(TestIssuer.claims("alice").issuer("http://127.0.0.1:1/realms/evil")));
        cases.put("bad signature", TestIssuer.signWithForeignKey(TestIssuer.claims("alice")));
        cases.put("names no one", TestIssuer.sign(TestIssuer.claims("alice").remove("sub")));
        cases.put("unknown signing key", TestIssuer.claims("alice").jws().keyId("never-published").sign(
                java.security.KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate()));
        cases.put("not a valid token", "abc.def.ghi");
        cases.put("issued in the future", TestIssuer.sign(TestIssuer.claims("alice").issuedAt(now.plusSeconds(3600))
                .expiresAt(now.plusSeconds(7200))));
        for (var c : cases.entrySet()) {
            String ua = "why-" + System.nanoTime();
            String body = given().contentType("application/json").accept("application/json, text/event-stream")
                    .header("Authorization", "Bearer " + c.getValue()).header("User-Agent", ua).body(INIT).post("/mcp").then()
                    .statusCode(401).extract().asString();
            org.junit.jupiter.api.Assertions.assertFalse(body.contains(c.getKey()), "the answer does not say why: " + body);
            Wait.until("the refusal on record", Duration.ofSeconds(5), () -> AuditRow.first("user_agent = ?", ua) != null);
            AuditRow row = AuditRow.first("user_agent = ?", ua);
            org.junit.jupiter.api.Assertions.assertEquals("invalid-token", row.outcome, c.getKey());
            org.junit.jupiter.api.Assertions.assertEquals(c.getKey(), row.detail, c.getKey());
        }
    }

    /** A token issued a little ahead of this server's clock (another clock, slightly fast) is accepted. */
    @Test
    void aTokenIssuedSecondsAheadIsAccepted() {
        var now = java.time.Instant.now();
        post(TestIssuer.sign(TestIssuer.claims("alice").issuedAt(now.plusSeconds(20)).expiresAt(now.plusSeconds(300)))).statusCode(200);
    }

    /** The auditor and administrator APIs put a refused token, or none, on record as /mcp does, and name the record. */
    @Test
    void refusalsAtTheStaffApisAreOnRecordAndNamed() throws Exception {
        String ua = "staff-probe-" + System.nanoTime();
        String forged = TestIssuer.signWithForeignKey(TestIssuer.claims("auditor"));
        var ids = new java.util.ArrayList<String>();
        ids.add(given().header("Authorization", "Bearer " + forged).header("User-Agent", ua).get("/audit/search?subject=bob")
                .then().statusCode(401).header("WWW-Authenticate", containsString("Bearer")).extract().header("X-Request-Id"));
        ids.add(given().header("User-Agent", ua).get("/audit/search").then().statusCode(401).extract().header("X-Request-Id"));
        ids.add(given().header("Authorization", "Bearer garbage").header("User-Agent", ua).get("/admin/policy").then()
                .statusCode(401).extract().header("X-Request-Id"));
        org.junit.jupiter.api.Assertions.assertFalse(ids.contains(null), "each 401 names its record: " + ids);
        Wait.until("the three refusals on record", Duration.ofSeconds(5),
                () -> AuditRow.list("user_agent = ? order by id", ua).size() >= 3);
        var rows = AuditRow.list("user_agent = ? order by id", ua);
        org.junit.jupiter.api.Assertions.assertEquals(List.of("GET /audit/search/invalid-token", "GET /audit/search/no-token",
                "GET /admin/policy/invalid-token"), rows.stream().map(r -> r.method + "/" + r.outcome).toList());
        org.junit.jupiter.api.Assertions.assertEquals(ids, rows.stream().map(r -> r.requestId).toList());
        for (AuditRow row : rows) {
            org.junit.jupiter.api.Assertions.assertEquals("AUTHENTICATION", row.kind);
            org.junit.jupiter.api.Assertions.assertNull(row.subject, "an unverified token names nobody");
        }
    }

    /** A correctly signed token that names no subject is refused like any other, on record, not answered with 500. */
    @Test
    void aSignedTokenWithoutSubjectIsRefusedOnRecord() throws Exception {
        String nameless = TestIssuer.sign(TestIssuer.claims("alice").remove("sub"));
        String ua = "nameless-" + nameless.hashCode();
        given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + nameless).header("User-Agent", ua).body(INIT).post("/mcp").then()
                .statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
        // The same on a GET, which maps its caller apart from a POST's body.
        given().accept("text/event-stream").header("Authorization", "Bearer " + nameless).header("User-Agent", ua)
                .header("Mcp-Session-Id", "any").get("/mcp").then().statusCode(401)
                .header("WWW-Authenticate", containsString("error=\"invalid_token\""));
        Wait.until("both refusals on record", Duration.ofSeconds(5),
                () -> AuditRow.list("user_agent = ? order by id", ua).size() >= 2);
        var rows = AuditRow.list("user_agent = ? order by id", ua);
        org.junit.jupiter.api.Assertions.assertEquals(2, rows.size(), rows.toString());
        for (AuditRow row : rows) {
            org.junit.jupiter.api.Assertions.assertEquals("AUTHENTICATION", row.kind);
            org.junit.jupiter.api.Assertions.assertEquals("DENY", row.decision);
            org.junit.jupiter.api.Assertions.assertEquals("invalid-token", row.outcome);
        }
        org.junit.jupiter.api.Assertions.assertEquals(List.of("POST /mcp", "GET /mcp"), rows.stream().map(r -> r.method).toList());
    }

    /**
     * A correctly signed token whose name is not text: quarkus-oidc's principal name ({@code preferred_username} here) a
     * number, or the subject claim an object or a flag. Each is refused as a token naming no one (401, on record), not
     * answered with 500 and a stack trace.
     */
    @Test
    void aSignedTokenWhoseNameIsNotTextIsRefusedOnRecord() throws Exception {
        String ua = "not-text-" + System.nanoTime();
        var tokens = List.of(
                TestIssuer.signJson("\"sub\":\"alice\",\"preferred_username\":12345,\"azp\":\"test-client\""),
                TestIssuer.signJson("\"sub\":{\"a\":1},\"preferred_username\":\"alice\",\"azp\":\"test-client\""),
                TestIssuer.signJson("\"sub\":true,\"preferred_username\":\"alice\",\"azp\":\"test-client\""));
        for (String token : tokens) {
            for (int attempt = 0; attempt < 2; attempt++) { // the second as a retry: nothing was kept of the first
                given().contentType("application/json").accept("application/json, text/event-stream")
                        .header("Authorization", "Bearer " + token).header("User-Agent", ua).body(INIT).post("/mcp").then()
                        .statusCode(401).header("WWW-Authenticate", containsString("error=\"invalid_token\""));
            }
        }
        Wait.until("the refusals on record", Duration.ofSeconds(5), () -> AuditRow.list("user_agent = ? order by id", ua).size() >= 6);
        var rows = AuditRow.list("user_agent = ? order by id", ua);
        org.junit.jupiter.api.Assertions.assertEquals(6, rows.size(), rows.toString());
        for (AuditRow row : rows) {
            org.junit.jupiter.api.Assertions.assertEquals("AUTHENTICATION", row.kind);
            org.junit.jupiter.api.Assertions.assertEquals("invalid-token", row.outcome);
        }
        // The same token with text where the name is: accepted, so the refusals above are for the name alone.
        given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + TestIssuer.signJson("\"sub\":\"alice\",\"preferred_username\":\"alice\","
                        + "\"azp\":\"test-client\""))
                .body(INIT).post("/mcp").then().statusCode(200);
    }

    @Test
    void protectedResourceMetadataNamesTheIssuer() {
        for (String path : new String[] {"/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"}) {
            given().when().get(path).then().statusCode(200)
                    .body("authorization_servers", contains(TestIssuer.issuer()))
                    .body("resource", endsWith("/mcp"))
                    .body("bearer_methods_supported", contains("header"));
        }
    }
}
