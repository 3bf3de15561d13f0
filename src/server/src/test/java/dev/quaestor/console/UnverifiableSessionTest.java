package dev.quaestor.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestIssuer;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.crypto.SecretKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

/**
 * A console session whose ID token the identity provider's keys no longer verify (the provider rotated its keys and
 * dropped the old one, or a dev-mode restart gave the dev provider new ones) is sent to sign in again, as a session
 * cookie that cannot be read at all is, not answered with a bare 401. Nothing of the console is shown to it.
 */
@QuarkusTest
class UnverifiableSessionTest {

    private static final Pattern SESSION_COOKIE = Pattern.compile("(q_session_console=)([^;]+)");

    @Test
    void aSessionSignedWithAKeyTheProviderNoLongerHasIsSentToSignInAgain() throws Exception {
        var console = ConsoleSession.signIn("auditor");
        assertEquals(200, console.get("/console/integrity").statusCode(), "signed in");
        // The control: the cookie opened and sealed again as it was still opens the console, so what follows is the
        // signature's doing, not a cookie this test could not remake.
        assertEquals(200, given().header("Cookie", reSealed(console.cookies(), null)).redirects().follow(false)
                .get("/console/integrity").statusCode(), "the cookie remade unchanged still signs in");
        // Signed by a key the provider does not publish, under a key id it never had: what a key rotation leaves.
        String cookies = reSealed(console.cookies(), "rotated-away");

        Response page = given().header("Cookie", cookies).redirects().follow(false).get("/console/integrity");
        assertEquals(302, page.statusCode(), page.asString());
        // On record before the answer, as an invalid access attempt: nothing vouches for who sent it.
        AuditRow refused = AuditRow.first("request_id = ?", page.header("X-Request-Id"));
        assertEquals("AUTHENTICATION", refused.kind);
        assertEquals("console/session", refused.method);
        assertEquals("DENY", refused.decision);
        assertEquals("invalid-token", refused.outcome);
        assertNull(refused.subject, "no subject: the token that would name one does not verify");
        assertEquals("/console/integrity", page.header("Location"), "back to the page asked for");
        List<String> set = page.headers().getValues("Set-Cookie");
        String left = without(cookies, set);
        assertFalse(left.contains("q_session_console") || left.contains(ConsoleCookies.SESSION), "the sign-in's cookies are"
                + " cleared: " + set);

        // The browser follows without them, and that starts a new sign-in with the identity provider.
        Response again = given().header("Cookie", left).redirects().follow(false).get(page.header("Location"));
        assertEquals(302, again.statusCode(), again.asString());
        assertTrue(again.header("Location").startsWith(TestIssuer.issuer()), "a new sign-in: " + again.header("Location"));

        // The page's query is kept; a request line in absolute form does not make the answer point elsewhere.
        assertEquals("/console/search?subject=alice", given().header("Cookie", cookies).redirects().follow(false)
                .get("/console/search?subject=alice").header("Location"));
        String raw = rawGet("GET http://elsewhere.example/console/integrity HTTP/1.1", cookies);
        assertTrue(raw.startsWith("HTTP/1.1 302"), raw);
        assertTrue(raw.contains("\r\nLocation: /console/integrity\r\n"), raw);

        Response head = given().header("Cookie", cookies).redirects().follow(false).head("/console/integrity");
        assertEquals(302, head.statusCode());
        assertEquals("/console/integrity", head.header("Location"));

        // A form sent with it is refused, not carried out, and told to sign in again.
        Response post = given().header("Cookie", cookies).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .body("csrf=" + console.csrf()).post("/console/logout");
        assertEquals(401, post.statusCode(), post.asString());
        assertEquals("invalid-token", AuditRow.first("request_id = ?", post.header("X-Request-Id")).outcome);
        assertTrue(post.asString().contains("Sign in again"), post.asString());

        // Under the key id the provider does publish, a signature that does not hold is refused the same way.
        Response forged = given().header("Cookie", reSealed(console.cookies(), "test-key")).redirects().follow(false)
                .get("/console/integrity");
        assertEquals(302, forged.statusCode(), forged.asString());
        assertEquals("/console/integrity", forged.header("Location"));
        assertEquals("invalid-token", AuditRow.first("request_id = ?", forged.header("X-Request-Id")).outcome);
    }

    /** The answer's head to a request written by hand. */
    private static String rawGet(String requestLine, String cookies) throws Exception {
        try (var socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.getOutputStream().write((requestLine + "\r\nHost: 127.0.0.1:" + RestAssured.port + "\r\nCookie: " + cookies
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            int end = answer.indexOf("\r\n\r\n");
            return end < 0 ? answer : answer.substring(0, end + 2);
        }
    }

    /** The Cookie header {@code cookies} once the cookies {@code set} clears (Max-Age=0) are dropped. */
    private static String without(String cookies, List<String> set) {
        return Arrays.stream(cookies.split(";\\s*")).filter(pair -> set.stream().noneMatch(c -> c.contains("Max-Age=0")
                && c.startsWith(pair.substring(0, pair.indexOf('=') + 1)))).collect(Collectors.joining("; "));
    }

    /**
     * A cookie that cannot be opened at all is Quarkus's to answer, as before: it is sent to sign in, and this refusal
     * is not recorded for it (nothing says its token did not verify: there was none to read).
     */
    @Test
    void aCookieThatCannotBeOpenedIsSentToSignInByQuarkusAndNotRecordedAsInvalidToken() {
        long before = AuditRow.count("outcome = 'invalid-token' AND method = 'console/session'");
        Response page = given().header("Cookie", "q_session_console=not-a-sealed-cookie").redirects().follow(false)
                .get("/console/integrity");
        assertEquals(302, page.statusCode(), page.asString());
        assertTrue(page.header("Location").startsWith(TestIssuer.issuer()), "a new sign-in: " + page.header("Location"));
        assertEquals(before, AuditRow.count("outcome = 'invalid-token' AND method = 'console/session'"));
    }

    /**
     * The cookies with the session's cookie opened and sealed again, its ID token signed again by a key the test
     * issuer never published, under the key id {@code kid}; or, if null, as it was.
     */
    private static String reSealed(String cookies, String kid) throws Exception {
        Matcher m = SESSION_COOKIE.matcher(cookies);
        assertTrue(m.find(), "a session cookie: " + cookies);
        SecretKey key = OidcUtils.createSecretKeyFromDigest(TestIssuer.CONSOLE_SECRET);
        String[] tokens = OidcUtils.decryptString(m.group(2), key).split("\\|", -1);
        if (kid == null) {
            return m.replaceFirst(Matcher.quoteReplacement(m.group(1) + OidcUtils.encryptString(String.join("|", tokens), key)));
        }
        String payload = new String(Base64.getUrlDecoder().decode(tokens[0].split("\\.")[1]));
        var jws = new JsonWebSignature();
        jws.setPayload(JwtClaims.parse(payload).toJson());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setKeyIdHeaderValue(kid);
        var gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        jws.setKey(gen.generateKeyPair().getPrivate());
        tokens[0] = jws.getCompactSerialization();
        return m.replaceFirst(Matcher.quoteReplacement(m.group(1) + OidcUtils.encryptString(String.join("|", tokens), key)));
    }
}
