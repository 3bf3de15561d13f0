package dev.quaestor.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.cases.CaseRecords;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebDriver;

/**
 * A case's bundle runs at most {@link CaseRecords#BUNDLED_SEARCHES} of its searches while it holds one of the
 * replica's places for bundles: a case with more is refused at once (409, saying why), on record as {@code not-made},
 * before any search is run; one with that many has them run.
 */
@QuarkusTest
class CaseBundleSearchCapTest {

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

    /** A case of the auditor's with {@code searches} searches, none of which finds anything. */
    private static long caseWithSearches(int searches) {
        var auditor = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json");
        long id = auditor.body("{\"title\":\"Searches only\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
        for (int i = 0; i < searches; i++) {
            given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                    .body("{\"name\":\"nobody " + i + "\",\"query\":\"subject=nobody-" + System.nanoTime() + "\"}")
                    .post("/audit/cases/" + id + "/searches").then().statusCode(200);
        }
        return id;
    }

    private static HttpResponse<String> bundle(String base, long caseId) throws Exception {
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console/bundle/case/" + caseId))
                .header("Cookie", cookies).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aCaseWithMoreSearchesThanABundleRunsIsRefusedAtOnceOnRecord() throws Exception {
        int cap = CaseRecords.BUNDLED_SEARCHES;
        long over = caseWithSearches(cap + 1);
        long at = caseWithSearches(cap);
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/cases", "auditor");

        long started = System.nanoTime();
        var refused = bundle(base, over);
        long tookMillis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(409, refused.statusCode(), refused.body());
        String why = "case " + over + " has " + (cap + 1) + " searches, more than the " + cap + " a bundle of a case runs";
        assertTrue(refused.body().contains(why), refused.body());
        assertTrue(tookMillis < 5_000, "refused before its searches are run: " + tookMillis + " ms");
        String rid = refused.headers().firstValue("X-Request-Id").orElseThrow();
        var made = AuditRow.list("request_id = ? AND method = 'audit/bundle/made'", rid);
        assertEquals(List.of("not-made"), made.stream().map(r -> r.outcome).toList());
        assertTrue(made.get(0).detail.contains(why), made.get(0).detail);

        // As many searches as a bundle runs: they are run (and find nothing).
        var run = bundle(base, at);
        assertEquals(409, run.statusCode(), run.body());
        assertTrue(run.body().contains("case " + at + " has no request yet, and its searches find none"), run.body());
        // The call is on record under the case's uri, so the case's history shows it.
        String runId = run.headers().firstValue("X-Request-Id").orElseThrow();
        assertEquals(List.of(dev.quaestor.cases.AuditCase.uriOf(at)),
                AuditRow.list("request_id = ? AND method = 'console/bundle'", runId).stream().map(r -> r.uri).toList());
        browser.manage().deleteAllCookies();
    }
}
