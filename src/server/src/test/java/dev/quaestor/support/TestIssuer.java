package dev.quaestor.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * A small but real OIDC issuer for tests: it serves discovery and a JWKS over HTTP on loopback and
 * issues RS256-signed access tokens from its token endpoint. Quarkus verifies them exactly as it
 * would a production IdP's (discovery, JWKS fetch, signature, issuer, expiry, audience).
 *
 * <p>Users are fixed: alice (principal-investigator), bob (clinician), carol (analyst, tenant globex).
 *
 * <p>For the console it also signs people in with the authorization-code flow: its authorization endpoint
 * serves a sign-in form (user name and password, the password being the user name), and its token endpoint
 * exchanges the code for an ID token that says the person signed in with a password and a one-time code
 * ({@code acr} {@value #CONSOLE_ACR}, {@code amr} pwd and otp).
 */
public class TestIssuer implements QuarkusTestResourceLifecycleManager {

    public static final String AUDIENCE = "quaestor";
    public static final String CONSOLE_CLIENT = "quaestor-console";
    public static final String CONSOLE_SECRET = "console-test-secret-0123456789abcdef";
    public static final String CONSOLE_ACR = "urn:quaestor:mfa";
    private static final Map<String, String[]> CODES = new java.util.concurrent.ConcurrentHashMap<>();
    /** Live refresh tokens of the code flow: the user, the client and when the person signed in. Each is used once. */
    private static final Map<String, String[]> REFRESH = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<String, List<String>> ROLES = Map.ofEntries(
            Map.entry("alice", List.of("principal-investigator")),
            Map.entry("bob", List.of("clinician")),
            Map.entry("carol", List.of("analyst")),
            Map.entry("dave", List.of("clinician")),
            Map.entry("erin", List.of("clinician")),
            Map.entry("admin", List.of("quaestor-admin")),
            Map.entry("auditor", List.of("quaestor-auditor")),
            Map.entry("auditor2", List.of("quaestor-auditor")),
            Map.entry("auditor3", List.of("quaestor-auditor")),
            Map.entry("caseadmin", List.of("quaestor-case-admin")),
            Map.entry("prometheus", List.of("quaestor-metrics")));

    private static HttpServer server;
    private static KeyPair keys;
    /** A second signing key, published only while {@link #publishSecondKey} says so. */
    private static KeyPair secondKeys;
    private static final String SECOND_KEY_PUBLISHED = "quaestor.test.issuer.second-key";
    private static String issuer;

    @Override
    public synchronized Map<String, String> start() {
        try {
            if (server == null) {
                var gen = KeyPairGenerator.getInstance("RSA");
                gen.initialize(2048);
                keys = gen.generateKeyPair();
                secondKeys = gen.generateKeyPair();
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
                issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
                server.createContext("/realms/test/.well-known/openid-configuration", ex -> metadata(ex, discovery()));
                server.createContext("/realms/test/protocol/openid-connect/certs", ex -> metadata(ex, jwks()));
                // A slow answer (delayMetadata) holds one thread, not the whole issuer.
                server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
                    Thread t = new Thread(r, "test-issuer");
                    t.setDaemon(true);
                    return t;
                }));
                server.createContext("/realms/test/protocol/openid-connect/token", TestIssuer::token);
                server.createContext("/realms/test/protocol/openid-connect/auth", TestIssuer::authorize);
                server.start();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return Map.of("quarkus.oidc.auth-server-url", issuer, "quarkus.oidc.token.audience", AUDIENCE,
                "quarkus.oidc.console.auth-server-url", issuer, "quarkus.oidc.console.client-id", CONSOLE_CLIENT,
                "quarkus.oidc.console.credentials.secret", CONSOLE_SECRET);
    }

    @Override
    public void stop() {
        // Shared by all test classes of the run; the JVM's exit stops it.
    }

    public static String issuer() {
        return issuer;
    }

    /** A token for a fixed user, fetched from the issuer's token endpoint over HTTP. */
    public static String tokenFor(String user, String scope) {
        try {
            String form = "grant_type=password&client_id=test-client&username=" + user + "&password=" + user
                    + (scope == null ? "" : "&scope=" + scope.replace(" ", "%20"));
            var req = HttpRequest.newBuilder(URI.create(issuer + "/protocol/openid-connect/token"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build();
            var res = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() != 200) {
                throw new IllegalStateException("token endpoint said " + res.statusCode() + ": " + res.body());
            }
            var m = java.util.regex.Pattern.compile("\"access_token\":\"([^\"]+)\"").matcher(res.body());
            if (!m.find()) {
                throw new IllegalStateException("no access_token in " + res.body());
            }
            return m.group(1);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String tokenFor(String user) {
        return tokenFor(user, "openid resources:read");
    }

    /** Claims as this issuer would put them, for tests that then alter one thing (expiry, audience...). */
    public static JwtClaimsBuilder claims(String user) {
        return Jwt.issuer(issuer).subject(user).audience(AUDIENCE).claim("azp", "test-client")
                .claim("scope", "openid resources:read")
                .claim("realm_access", Map.of("roles", ROLES.getOrDefault(user, List.of())))
                .issuedAt(Instant.now()).expiresIn(300).claim("jti", UUID.randomUUID().toString());
    }

    /** Signs with this issuer's key. */
    public static String sign(JwtClaimsBuilder claims) {
        return claims.jws().keyId("test-key").sign(keys.getPrivate());
    }

    /**
     * Signs claims given as JSON with this issuer's key, for claims the builder refuses to write (a numeric
     * {@code preferred_username}): issuer, audience, expiry, issue time and a jti are added.
     */
    public static String signJson(String otherClaims) {
        long now = Instant.now().getEpochSecond();
        var jws = new org.jose4j.jws.JsonWebSignature();
        jws.setPayload("{\"iss\":\"" + issuer + "\",\"aud\":\"" + AUDIENCE + "\",\"iat\":" + now + ",\"exp\":" + (now + 300)
                + ",\"jti\":\"" + UUID.randomUUID() + "\",\"scope\":\"openid resources:read\"," + otherClaims + "}");
        jws.setAlgorithmHeaderValue("RS256");
        jws.setKeyIdHeaderValue("test-key");
        jws.setKey(keys.getPrivate());
        try {
            return jws.getCompactSerialization();
        } catch (org.jose4j.lang.JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Publishes the second key in this issuer's key set, or withdraws it (as after a compromise). */
    public static void publishSecondKey(boolean published) {
        System.setProperty(SECOND_KEY_PUBLISHED, Boolean.toString(published));
    }

    /** Signs with the second key, named {@code second-key}; whether it counts depends on {@link #publishSecondKey}. */
    public static String signWithSecondKey(JwtClaimsBuilder claims) {
        return claims.jws().keyId("second-key").sign(secondKeys.getPrivate());
    }

    /** Signs with a key this issuer never published, as a forger would. */
    public static String signWithForeignKey(JwtClaimsBuilder claims) {
        try {
            var gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            return claims.jws().keyId("test-key").sign(gen.generateKeyPair().getPrivate());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> form(String body) {
        var form = new HashMap<String, String>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static String html(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The authorization endpoint: GET shows the sign-in form, POST checks it and returns to the client with a code. */
    private static void authorize(HttpExchange ex) throws IOException {
        if (ex.getRequestMethod().equals("GET")) {
            var q = form(ex.getRequestURI().getRawQuery() == null ? "" : ex.getRequestURI().getRawQuery());
            var hidden = new StringBuilder();
            for (String k : List.of("client_id", "redirect_uri", "state", "nonce", "scope", "code_challenge", "code_challenge_method")) {
                if (q.get(k) != null) {
                    hidden.append("<input type=\"hidden\" name=\"").append(k).append("\" value=\"").append(html(q.get(k))).append("\">");
                }
            }
            String page = "<!DOCTYPE html><html><head><title>Sign in to the test realm</title></head><body>"
                    + "<h1>Test realm</h1><form method=\"post\" id=\"kc-form-login\">" + hidden
                    + "<label>User <input id=\"username\" name=\"username\"></label> "
                    + "<label>Password <input id=\"password\" name=\"password\" type=\"password\"></label> "
                    + "<button id=\"kc-login\" type=\"submit\">Sign in</button></form></body></html>";
            byte[] bytes = page.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "text/html; charset=utf-8");
            ex.sendResponseHeaders(200, bytes.length);
            try (var out = ex.getResponseBody()) {
                out.write(bytes);
            }
            return;
        }
        var f = form(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        String user = f.get("username");
        if (user == null || !user.equals(f.get("password")) || !ROLES.containsKey(user) || f.get("redirect_uri") == null) {
            send(ex, 401, "{\"error\":\"access_denied\"}");
            return;
        }
        String code = UUID.randomUUID().toString();
        CODES.put(code, new String[] {user, f.get("client_id"), f.get("redirect_uri"), f.get("nonce")});
        String target = f.get("redirect_uri") + (f.get("redirect_uri").contains("?") ? "&" : "?") + "code=" + code
                + (f.get("state") == null ? "" : "&state=" + java.net.URLEncoder.encode(f.get("state"), StandardCharsets.UTF_8));
        ex.getResponseHeaders().add("Location", target);
        ex.sendResponseHeaders(302, -1);
        ex.close();
    }

    /** The code grant: an ID token, an access token and a refresh token for the person who signed in. */
    private static void codeGrant(HttpExchange ex, Map<String, String> form) throws IOException {
        String[] grant = CODES.remove(form.getOrDefault("code", ""));
        if (grant == null || !grant[2].equals(form.get("redirect_uri"))) {
            send(ex, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        codeFlowTokens(ex, grant[0], grant[1] == null ? CONSOLE_CLIENT : grant[1], Instant.now().getEpochSecond(), grant[3]);
    }

    /** The refresh grant: new tokens for a live refresh token, which is then spent (a new one comes with them). */
    private static void refreshGrant(HttpExchange ex, Map<String, String> form) throws IOException {
        String[] grant = REFRESH.remove(form.getOrDefault("refresh_token", ""));
        if (grant == null) {
            send(ex, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        synchronized (METADATA_LOCK) {
            System.setProperty(REFRESHES, Long.toString(Long.getLong(REFRESHES, 0L) + 1));
        }
        codeFlowTokens(ex, grant[0], grant[1], Long.parseLong(grant[2]), null);
    }

    private static void codeFlowTokens(HttpExchange ex, String user, String client, long authTime, String nonce) throws IOException {
        long life = Long.getLong(CONSOLE_TOKEN_SECONDS, 3600L);
        var id = Jwt.issuer(issuer).subject(user).audience(client).claim("azp", client).claim("preferred_username", user)
                .claim("realm_access", Map.of("roles", ROLES.getOrDefault(user, List.of())))
                .claim("tenant", user.equals("carol") ? "globex" : "acme").claim("acr", CONSOLE_ACR)
                .claim("amr", List.of("pwd", "otp")).claim("auth_time", authTime)
                .issuedAt(Instant.now()).expiresIn(life);
        if (nonce != null) {
            id.claim("nonce", nonce);
        }
        String idToken = sign(id);
        String access = sign(claims(user).expiresIn(life));
        String refresh = UUID.randomUUID().toString();
        REFRESH.put(refresh, new String[] {user, client, Long.toString(authTime)});
        send(ex, 200, "{\"access_token\":\"" + access + "\",\"id_token\":\"" + idToken + "\",\"refresh_token\":\"" + refresh
                + "\",\"token_type\":\"Bearer\",\"expires_in\":" + life + "}");
    }

    private static void token(HttpExchange ex) throws IOException {
        var form = form(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if ("authorization_code".equals(form.get("grant_type"))) {
            codeGrant(ex, form);
            return;
        }
        if ("refresh_token".equals(form.get("grant_type"))) {
            refreshGrant(ex, form);
            return;
        }
        String user = form.get("username");
        if (!"password".equals(form.get("grant_type")) || user == null || !user.equals(form.get("password"))
                || !ROLES.containsKey(user)) {
            send(ex, 400, "{\"error\":\"invalid_grant\"}");
            return;
        }
        var claims = claims(user);
        if (form.containsKey("scope")) {
            claims.claim("scope", form.get("scope"));
        }
        if (user.equals("carol")) {
            claims.claim("tenant", "globex");
        } else {
            claims.claim("tenant", "acme");
        }
        String token = sign(claims);
        send(ex, 200, "{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":300}");
    }

    private static String discovery() {
        return "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/protocol/openid-connect/certs\","
                + "\"token_endpoint\":\"" + issuer + "/protocol/openid-connect/token\","
                + "\"authorization_endpoint\":\"" + issuer + "/protocol/openid-connect/auth\","
                + "\"id_token_signing_alg_values_supported\":[\"RS256\"],\"subject_types_supported\":[\"public\"],"
                + "\"response_types_supported\":[\"code\"]}";
    }

    private static String jwks() {
        return "{\"keys\":[" + jwk("test-key", keys) + (Boolean.getBoolean(SECOND_KEY_PUBLISHED) ? "," + jwk("second-key", secondKeys) : "")
                + "]}";
    }

    private static String jwk(String kid, KeyPair pair) {
        var pub = (RSAPublicKey) pair.getPublic();
        var enc = Base64.getUrlEncoder().withoutPadding();
        return "{\"kty\":\"RSA\",\"use\":\"sig\",\"alg\":\"RS256\",\"kid\":\"" + kid + "\",\"n\":\""
                + enc.encodeToString(unsigned(pub.getModulus().toByteArray())) + "\",\"e\":\""
                + enc.encodeToString(unsigned(pub.getPublicExponent().toByteArray())) + "\"}";
    }

    private static byte[] unsigned(byte[] b) {
        return b.length > 1 && b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
    }

    /*
     * How slow the discovery document and the keys are, and how often they were fetched: JVM-wide (system properties,
     * counted under an interned lock), since Quarkus loads this class in more than one class loader.
     */
    private static final String METADATA_DELAY = "quaestor.test.issuer.metadata-delay-ms";
    private static final String METADATA_CALLS = "quaestor.test.issuer.metadata-calls";
    private static final String METADATA_LOCK = "dev.quaestor.support.TestIssuer.metadata";

    private static final String CONSOLE_TOKEN_SECONDS = "quaestor.test.issuer.console-token-seconds";
    private static final String REFRESHES = "quaestor.test.issuer.refreshes";

    /** How long the ID and access tokens of the code flow (sign-ins and their refreshes) live from now on; null: an hour. */
    public static void codeFlowTokensLive(Duration life) {
        if (life == null) {
            System.clearProperty(CONSOLE_TOKEN_SECONDS);
        } else {
            System.setProperty(CONSOLE_TOKEN_SECONDS, Long.toString(life.toSeconds()));
        }
    }

    /** How many times a refresh token has been exchanged for new tokens, in this JVM. */
    public static long refreshes() {
        synchronized (METADATA_LOCK) {
            return Long.getLong(REFRESHES, 0L);
        }
    }

    /** Makes the discovery document and the keys answer only after {@code delay} (zero: at once again). */
    public static void delayMetadata(Duration delay) {
        System.setProperty(METADATA_DELAY, Long.toString(delay.toMillis()));
    }

    /** How many times the discovery document or the keys have been asked for, in this JVM. */
    public static long metadataCalls() {
        synchronized (METADATA_LOCK) {
            return Long.getLong(METADATA_CALLS, 0L);
        }
    }

    private static void metadata(HttpExchange ex, String body) throws IOException {
        synchronized (METADATA_LOCK) {
            System.setProperty(METADATA_CALLS, Long.toString(Long.getLong(METADATA_CALLS, 0L) + 1));
        }
        // The delay is read again while the answer is held: setting it to zero releases the answers already waiting.
        long start = System.nanoTime();
        try {
            while (System.nanoTime() - start < TimeUnit.MILLISECONDS.toNanos(Long.getLong(METADATA_DELAY, 0L))) {
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        json(ex, body);
    }

    private static void json(HttpExchange ex, String body) throws IOException {
        send(ex, 200, body);
    }

    private static void send(HttpExchange ex, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, bytes.length);
        try (var out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }
}
