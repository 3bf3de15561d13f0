package dev.quaestor.console;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The case administrator role in the console manages a case's members and holds, and reads nothing of the audit log
 * through it: the case's page names its requests and searches without their records or counts and offers neither the
 * request form nor the evidence bundle; a request or a search posted anyway, or the bundle asked for by its address, is
 * refused (403), on record under the case's uri, and nothing is stored or made.
 */
@QuarkusTest
class CaseAdminConsoleTest {

    private static WebDriver browser;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = Browser.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static String cookies() {
        return browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
    }

    private static HttpResponse<String> send(String base, String path, String form) throws Exception {
        var b = HttpRequest.newBuilder(URI.create(base + path)).header("Cookie", cookies());
        b = form == null ? b.GET() : b.header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form));
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void theCaseAdministratorSeesNoRecordsAndIsRefusedWhatWouldReadThem() throws Exception {
        String token = TestIssuer.tokenFor("alice");
        String rid = Rpc.call(token, Rpc.initialize(token, "2025-06-18"), "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200).extract().header("X-Request-Id");
        long id = as("auditor").body("{\"title\":\"Managed by the case administrator\"}").post("/audit/cases").then().statusCode(201)
                .extract().jsonPath().getLong("id");
        as("auditor").body("{\"requestId\":\"" + rid + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(200);
        as("auditor").body("{\"name\":\"alice's reads\",\"query\":\"subject=alice\"}").post("/audit/cases/" + id + "/searches")
                .then().statusCode(200);

        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/cases/" + id, "caseadmin");
        Browser.waiting(browser).until(d -> d.getTitle().contains("Case " + id));
        // The menu leads to the cases, and to nothing of the audit log's.
        var menu = browser.findElements(By.cssSelector("nav a")).stream().map(a -> a.getAttribute("href")).toList();
        assertTrue(menu.stream().anyMatch(h -> h.endsWith("/console/cases")), menu.toString());
        assertFalse(menu.stream().anyMatch(h -> h.endsWith("/console/search") || h.endsWith("/console/who-read")), menu.toString());
        // What the case names, not what it finds.
        assertTrue(browser.findElement(By.id("requests")).getText().contains(rid), browser.getPageSource());
        assertTrue(browser.findElement(By.id("searches")).getText().contains("subject=alice"), browser.getPageSource());
        assertTrue(browser.findElements(By.cssSelector("#requests td.count, #searches td.count")).isEmpty(), "no record counts");
        assertFalse(browser.findElement(By.id("requests")).getText().contains("file:///docs/trials"), "no record's uri");
        assertTrue(browser.findElements(By.id("case-bundle")).isEmpty(), "no evidence bundle offered");
        assertTrue(browser.findElements(By.id("add-request-form")).isEmpty(), "no request form offered");
        assertFalse(browser.findElement(By.id("records-auditors-only")).getText().isEmpty());
        assertFalse(browser.findElements(By.id("put-hold-form")).isEmpty(), "holds are theirs to manage");

        // Tried anyway: each refused, on record under the case, and nothing stored or made.
        String csrf = URLEncoder.encode(browser.findElement(By.cssSelector("#put-hold-form input[name=csrf]")).getAttribute("value"),
                StandardCharsets.UTF_8);
        var request = send(base, "/console/cases/" + id + "/requests", "csrf=" + csrf + "&requestId=" + rid);
        assertEquals(403, request.statusCode(), request.body());
        assertTrue(request.body().contains("quaestor-auditor"), request.body());
        var fromSearch = send(base, "/console/cases?subject=bob", "csrf=" + csrf + "&title=t");
        assertEquals(403, fromSearch.statusCode(), fromSearch.body());
        var bundle = send(base, "/console/bundle/case/" + id, null);
        assertEquals(403, bundle.statusCode(), bundle.body());
        assertFalse(bundle.headers().firstValue("Content-Type").orElse("").contains("zip"));

        var refused = AuditRow.list("subject = 'caseadmin' AND decision = 'DENY' AND outcome = 'forbidden' ORDER BY id");
        assertTrue(refused.stream().anyMatch(r -> r.method.equals("audit/cases/add-request") && r.kind.equals("ADMIN")
                && AuditCase.uriOf(id).equals(r.uri)), refused.toString());
        assertTrue(refused.stream().anyMatch(r -> r.method.equals("console/bundle") && r.kind.equals("AUDIT_READ")
                && AuditCase.uriOf(id).equals(r.uri)), refused.toString());
        assertTrue(refused.stream().anyMatch(r -> r.method.equals("audit/cases/create") && r.kind.equals("ADMIN")), refused.toString());
        assertEquals(List.of(), AuditRow.list("subject = 'caseadmin' AND method = 'console/bundle' AND decision = 'ALLOW'"),
                "no bundle was made");
        assertEquals(List.of(), AuditRow.list("subject = 'caseadmin' AND method = 'audit/cases/create' AND decision = 'ALLOW'"),
                "no case was opened from the search");
        var c = as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(rid), c.getList("requests.requestId"), "the request stays the auditor's one");
        browser.manage().deleteAllCookies();
    }
}
