package dev.quaestor;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console in the packaged server's production profile, configured as docs/operations.md says
 * (QUAESTOR_CONSOLE_ENABLED, the console's client, QUAESTOR_HTTP_PUBLIC_URL): an auditor signs in through the code
 * flow in headless Chromium and pages are on record with how the auditor signed in; every cookie the console sets is
 * Secure, HttpOnly and SameSite; the sign-in's redirect URI comes from the public URL, never from the Host header, and
 * a foreign Host is refused on every path but health; without a public URL the server does not start.
 */
class ConsoleProdIT {

    private static final HttpClient HTTP = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
    private static String dbUrl;
    private static ServerProcess server;
    /** What the server is configured to call itself: localhost, while the tests also reach it as 127.0.0.1. */
    private static String publicUrl;

    private static Map<String, String> env(String db) throws Exception {
        Path key = SigningKeyFile.write(Path.of("target", "console-prod-audit-key.pem"));
        var env = new HashMap<String, String>();
        env.put("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer());
        env.put("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE);
        env.put("QUAESTOR_DB_URL", db);
        env.put("QUAESTOR_DB_USER", "quaestor_app");
        env.put("QUAESTOR_DB_PASSWORD", "trust");
        env.put("QUAESTOR_DB_OWNER_USER", "postgres");
        env.put("QUAESTOR_DB_OWNER_PASSWORD", "trust");
        env.put("QUAESTOR_DB_APP_ROLE", "quaestor_app");
        env.put("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString());
        env.put("QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString());
        env.put("QUAESTOR_CONSOLE_ENABLED", "true");
        env.put("QUAESTOR_CONSOLE_CLIENT_ID", TestIssuer.CONSOLE_CLIENT);
        env.put("QUAESTOR_CONSOLE_CLIENT_SECRET", TestIssuer.CONSOLE_SECRET);
        return env;
    }

    @BeforeAll
    static void start() throws Exception {
        new TestIssuer().start();
        dbUrl = ScratchDatabase.recreate("console_prod");
        server = new ServerProcess("console-prod", env(dbUrl));
        publicUrl = server.url().replace("127.0.0.1", "localhost");
        server.with("QUAESTOR_HTTP_PUBLIC_URL", publicUrl);
        server.start();
        server.awaitReady(Duration.ofSeconds(90));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anAuditorSignsInToTheConsoleOfTheProductionServer() throws Exception {
        var browser = Browser.start();
        try {
            Browser.signIn(browser, publicUrl + "/console", "auditor");
            Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("search-form")));
            var session = browser.manage().getCookies().stream().filter(c -> c.getName().startsWith("q_session_console"))
                    .findFirst().orElseThrow();
            assertTrue(session.isSecure() && session.isHttpOnly(), session.toString());
            assertEquals("/console", session.getPath());
            browser.get(publicUrl + "/console/integrity");
            assertTrue(browser.findElement(By.id("verdict")).getText().contains("Everything verifies"));
        } finally {
            browser.quit();
        }
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT auth_context FROM audit_entry WHERE method = 'console/integrity'")) {
            assertTrue(rs.next(), "the page view is on record");
            assertEquals("acr=" + TestIssuer.CONSOLE_ACR + ";amr=pwd,otp", rs.getString(1));
        }
    }

    /** The Set-Cookie headers of a whole console visit (sign-in, a page, sign-out), as the packaged server sends them. */
    @Test
    void everyConsoleCookieOfTheProductionServerIsSecureHttpOnlyAndSameSite() throws Exception {
        var jar = new LinkedHashMap<String, String>();
        var setCookies = new ArrayList<String>();
        // 1. A console page, not signed in: to the provider, with the state cookie.
        var first = get(publicUrl + "/console/search", jar, setCookies);
        assertEquals(302, first.statusCode(), first.body());
        String authorize = first.headers().firstValue("Location").orElseThrow();
        // 2. The provider's sign-in form, filled in and sent: back to the console's redirect URI with a code.
        var form = HTTP.send(HttpRequest.newBuilder(URI.create(authorize)).build(), HttpResponse.BodyHandlers.ofString());
        var fields = new LinkedHashMap<String, String>();
        var hidden = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">").matcher(form.body());
        while (hidden.find()) {
            fields.put(hidden.group(1), hidden.group(2).replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">")
                    .replace("&amp;", "&"));
        }
        fields.put("username", "auditor");
        fields.put("password", "auditor");
        var signedIn = HTTP.send(HttpRequest.newBuilder(URI.create(authorize)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(formBody(fields))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(302, signedIn.statusCode(), signedIn.body());
        String callback = signedIn.headers().firstValue("Location").orElseThrow();
        assertTrue(callback.startsWith(publicUrl + "/console?"), callback);
        // 3. The console's redirect URI: the session cookies, and back to the page asked for.
        var back = get(callback, jar, setCookies);
        assertEquals(302, back.statusCode(), back.body());
        assertTrue(back.headers().firstValue("Location").orElseThrow().endsWith("/console/search"), back.headers().map().toString());
        // 4. The page: the CSRF cookie.
        var page = get(publicUrl + "/console/search", jar, setCookies);
        assertEquals(200, page.statusCode(), page.body());
        var csrf = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"").matcher(page.body());
        assertTrue(csrf.find(), page.body());
        // 5. Sign-out: every console cookie cleared.
        var out = HTTP.send(HttpRequest.newBuilder(URI.create(publicUrl + "/console/logout")).header("Cookie", cookieHeader(jar))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + URLEncoder.encode(csrf.group(1), StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(303, out.statusCode(), out.body());
        setCookies.addAll(out.headers().allValues("Set-Cookie"));

        var names = new java.util.TreeSet<String>();
        for (String c : setCookies) {
            String lower = c.toLowerCase(Locale.ROOT);
            names.add(c.substring(0, c.indexOf('=')));
            assertTrue(lower.contains("; secure"), "not Secure: " + c);
            assertTrue(lower.contains("; httponly"), "not HttpOnly: " + c);
            assertTrue(lower.contains("; samesite="), "no SameSite: " + c);
            assertTrue(lower.contains("; path=/console"), "not scoped to the console: " + c);
        }
        // The identity provider's state and session cookies, the console session and CSRF: all were seen.
        assertTrue(names.stream().anyMatch(n -> n.startsWith("q_auth_console")), "the sign-in's state cookie: " + names);
        assertTrue(names.containsAll(List.of("q_session_console", "quaestor-console-session", "quaestor-csrf")), names.toString());
    }

    /** The redirect URI names the configured public URL whatever Host the request gives; a foreign Host is refused. */
    @Test
    void theSignInRedirectUriComesFromThePublicUrlNeverFromTheHostHeader() throws Exception {
        // Reached as 127.0.0.1 (an allowed host, not the public one): the provider is still told the public URL.
        var viaIp = HTTP.send(HttpRequest.newBuilder(URI.create(server.url() + "/console/search")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(302, viaIp.statusCode());
        assertEquals(publicUrl + "/console", redirectUri(viaIp.headers().firstValue("Location").orElseThrow()));
        // A Host the server does not answer to: 403 on the console, the API, the metadata and /mcp alike; health answers.
        for (String path : List.of("/console", "/console/search", "/console/signed-out", "/.well-known/oauth-protected-resource",
                "/audit/search", "/admin/policy", "/mcp")) {
            var evil = rawGet(path, "evil.example");
            assertTrue(evil.startsWith("HTTP/1.1 403"), path + ": " + evil);
            assertFalse(evil.contains("evil.example"), "nothing names the foreign host: " + evil);
        }
        assertTrue(rawGet("/q/health/ready", "10.1.2.3:8080").startsWith("HTTP/1.1 200"), "the kubelet probes by pod address");
    }

    /** Production with the console on and no public URL: the server does not start, and says what is missing. */
    @Test
    void withoutAPublicUrlTheProductionServerRefusesToStartTheConsole() throws Exception {
        try (var bare = new ServerProcess("console-prod-no-url", env(dbUrl))) {
            int exit = bare.runToExit(Duration.ofSeconds(90));
            assertNotEquals(0, exit);
            assertTrue(Files.readString(bare.log()).contains("quaestor.http.public-url (QUAESTOR_HTTP_PUBLIC_URL) is required"),
                    "the log names the key");
        }
    }

    private static HttpResponse<String> get(String url, Map<String, String> jar, List<String> setCookies) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(url));
        if (!jar.isEmpty()) {
            b.header("Cookie", cookieHeader(jar));
        }
        var r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        for (String c : r.headers().allValues("Set-Cookie")) {
            setCookies.add(c);
            String pair = c.substring(0, c.indexOf(';') < 0 ? c.length() : c.indexOf(';'));
            int eq = pair.indexOf('=');
            if (pair.substring(eq + 1).isEmpty() || c.toLowerCase(Locale.ROOT).contains("max-age=0")) {
                jar.remove(pair.substring(0, eq));
            } else {
                jar.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return r;
    }

    private static String cookieHeader(Map<String, String> jar) {
        var sb = new StringBuilder();
        jar.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "; ").append(k).append('=').append(v));
        return sb.toString();
    }

    private static String formBody(Map<String, String> fields) {
        var sb = new StringBuilder();
        fields.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return sb.toString();
    }

    private static String redirectUri(String authorizeUrl) {
        for (String pair : URI.create(authorizeUrl).getRawQuery().split("&")) {
            if (pair.startsWith("redirect_uri=")) {
                return URLDecoder.decode(pair.substring("redirect_uri=".length()), StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no redirect_uri in " + authorizeUrl);
    }

    /** A GET with this exact Host header (java.net.http will not send a foreign one), over a plain socket. */
    private static String rawGet(String path, String host) throws Exception {
        URI u = URI.create(server.url());
        try (var s = new java.net.Socket(u.getHost(), u.getPort())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
