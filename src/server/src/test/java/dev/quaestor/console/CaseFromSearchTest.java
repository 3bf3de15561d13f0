package dev.quaestor.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * A case opened from a search in the console is opened with its search or not at all: a search the case would refuse
 * (longer than a case's search may be, or with a name too long) is refused (400, on record) before the case is
 * opened, and no case is left without it.
 */
@QuarkusTest
class CaseFromSearchTest {

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

    private static HttpResponse<String> open(String base, String search, String form) throws Exception {
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console/cases?" + search)).header("Cookie", cookies)
                .header("Content-Type", "application/x-www-form-urlencoded").POST(HttpRequest.BodyPublishers.ofString(form)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long cases(String title) {
        return QuarkusTransaction.requiringNew().call(() -> AuditCase.count("title", title));
    }

    @Test
    void aSearchTheCaseWouldRefuseOpensNoCase() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/search", "auditor");
        String csrf = URLEncoder.encode(browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]"))
                .getAttribute("value"), StandardCharsets.UTF_8);
        String title = "From a search " + System.nanoTime();
        Instant before = Instant.now();

        // Under the request line's limit as sent; each '/' is "%2F" in the search as a case keeps it: 4,200 characters.
        var tooLong = open(base, "subject=" + "/".repeat(1400), "csrf=" + csrf + "&title=" + URLEncoder.encode(title, StandardCharsets.UTF_8));
        assertEquals(400, tooLong.statusCode(), tooLong.body());
        assertTrue(tooLong.body().contains("the search is longer than 4096 characters"), tooLong.body());
        var longName = open(base, "subject=alice", "csrf=" + csrf + "&title=" + URLEncoder.encode(title, StandardCharsets.UTF_8)
                + "&searchName=" + "n".repeat(129));
        assertEquals(400, longName.statusCode(), longName.body());
        assertEquals(0, cases(title), "no case was opened without its search");
        assertEquals(List.of("DENY/invalid", "DENY/invalid"), AuditRow.list("subject = 'auditor' AND method = 'audit/cases/create'"
                + " AND event_time >= ? ORDER BY id", before).stream().map(r -> r.decision + "/" + r.outcome).toList(),
                "each refusal is on record, and no case opened");

        var opened = open(base, "subject=alice", "csrf=" + csrf + "&title=" + URLEncoder.encode(title, StandardCharsets.UTF_8)
                + "&searchName=alice");
        assertEquals(303, opened.statusCode(), opened.body());
        long id = QuarkusTransaction.requiringNew().call(() -> AuditCase.<AuditCase>find("title", title).singleResult().id);
        assertEquals(List.of("subject=alice"), QuarkusTransaction.requiringNew().call(() -> AuditCase.<AuditCase>findById(id).searches
                .stream().map(s -> s.query).toList()));
        browser.manage().deleteAllCookies();
    }
}
