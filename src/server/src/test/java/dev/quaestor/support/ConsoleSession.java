package dev.quaestor.support;

import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;

/**
 * A console session of the running test server, signed in over HTTP without a browser: the console's redirect to the
 * test issuer, its sign-in form filled in and sent, the console's redirect URI with the code, then a page for the
 * CSRF cookie. What it keeps is the cookies a browser would send to {@code /console} and the page's CSRF token.
 */
public final class ConsoleSession {

    private static final Pattern HIDDEN = Pattern.compile("<input type=\"hidden\" name=\"([^\"]+)\" value=\"([^\"]*)\">");
    private static final Pattern CSRF = Pattern.compile("name=\"csrf\" value=\"([^\"]+)\"");

    private final String cookies;
    private final String csrf;

    private ConsoleSession(String cookies, String csrf) {
        this.cookies = cookies;
        this.csrf = csrf;
    }

    /** Signs {@code user} in to the console (the test issuer takes the user name as password). */
    public static ConsoleSession signIn(String user) {
        return signIn(user, "/console/search");
    }

    /** Signs {@code user} in through {@code page}, a console page the user's role opens. */
    public static ConsoleSession signIn(String user, String page) {
        String base = "http://127.0.0.1:" + RestAssured.port;
        var jar = new LinkedHashMap<String, String>();
        Response first = get(base + page, jar);
        expect(302, first);
        String authorize = first.header("Location");
        Response form = given().urlEncodingEnabled(false).get(authorize);
        expect(200, form);
        var fields = new LinkedHashMap<String, String>();
        Matcher hidden = HIDDEN.matcher(form.body().asString());
        while (hidden.find()) {
            fields.put(hidden.group(1), unescape(hidden.group(2)));
        }
        fields.put("username", user);
        fields.put("password", user);
        Response signedIn = given().urlEncodingEnabled(false).redirects().follow(false).contentType("application/x-www-form-urlencoded")
                .body(formBody(fields)).post(authorize);
        expect(302, signedIn);
        Response back = get(signedIn.header("Location"), jar);
        expect(302, back);
        Response opened = get(base + page, jar);
        expect(200, opened);
        Matcher csrf = CSRF.matcher(opened.body().asString());
        if (!csrf.find()) {
            throw new AssertionError("no CSRF token on the console's page: " + opened.body().asString());
        }
        return new ConsoleSession(cookieHeader(jar), csrf.group(1));
    }

    /** The Cookie header the session's requests carry. */
    public String cookies() {
        return cookies;
    }

    /** The CSRF token of the session's forms. */
    public String csrf() {
        return csrf;
    }

    /** A console address read with the signed-in cookies, redirects not followed. */
    public Response get(String path) {
        return given().header("Cookie", cookies).redirects().follow(false).get(path);
    }

    /** As {@link #get}, with {@code path} sent exactly as written: its percent-escapes are not escaped again. */
    public Response getAsWritten(String path) {
        return given().urlEncodingEnabled(false).header("Cookie", cookies).redirects().follow(false).get(path);
    }

    private static Response get(String url, Map<String, String> jar) {
        var spec = given().urlEncodingEnabled(false).redirects().follow(false);
        if (!jar.isEmpty()) {
            spec.header("Cookie", cookieHeader(jar));
        }
        Response r = spec.get(url);
        for (String c : r.headers().getValues("Set-Cookie")) {
            String pair = c.split(";", 2)[0];
            int eq = pair.indexOf('=');
            String name = pair.substring(0, eq).trim();
            String value = pair.substring(eq + 1).trim();
            if (value.isEmpty() || c.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
                jar.remove(name);
            } else {
                jar.put(name, value);
            }
        }
        return r;
    }

    private static void expect(int status, Response r) {
        if (r.statusCode() != status) {
            throw new AssertionError("signing in: expected " + status + ", got " + r.statusLine() + " " + r.headers() + " "
                    + r.body().asString());
        }
    }

    private static String cookieHeader(Map<String, String> jar) {
        return jar.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("; "));
    }

    private static String formBody(Map<String, String> fields) {
        return fields.entrySet().stream().map(e -> enc(e.getKey()) + "=" + enc(e.getValue())).collect(Collectors.joining("&"));
    }

    private static String enc(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static String unescape(String s) {
        return s.replace("&quot;", "\"").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
