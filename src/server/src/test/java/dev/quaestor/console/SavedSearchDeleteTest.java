package dev.quaestor.console;

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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deleting a saved search records what happened: the owner's deletion as allowed; another officer's shared search
 * refused (403), one they do not see or that does not exist as not found (404); each refusal is on record as DENY and
 * deletes nothing.
 */
@QuarkusTest
class SavedSearchDeleteTest {

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

    @Test
    void onlyTheOwnerDeletesAndEveryOtherAttemptIsRefusedOnRecord() throws Exception {
        // Saved searches' ids start again with each test database: records of another test's deletes can name the same.
        Instant since = Instant.now().minusSeconds(1);
        long mine = saved("auditor", "mine to delete", false);
        long theirsShared = saved("auditor2", "shared by auditor2", true);
        long theirsPrivate = saved("auditor2", "private to auditor2", false);
        long none = theirsPrivate + 1_000_000;

        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/search", "auditor");
        String csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");

        assertEquals(403, delete(base, theirsShared, csrf).statusCode());
        assertEquals(404, delete(base, theirsPrivate, csrf).statusCode());
        assertEquals(404, delete(base, none, csrf).statusCode());
        assertNotNull(find(theirsShared), "another's shared search is kept");
        assertNotNull(find(theirsPrivate), "another's private search is kept");
        assertEquals(303, delete(base, mine, csrf).statusCode());
        assertNull(find(mine), "the owner's is deleted");

        for (var expected : List.of(List.of(theirsShared, "DENY", "refused"), List.of(theirsPrivate, "DENY", "not-found"),
                List.of(none, "DENY", "not-found"), List.of(mine, "ALLOW", "ok"))) {
            var rows = AuditRow.list("subject = 'auditor' AND method = 'console/search/delete' AND (detail = ? OR detail LIKE ?)"
                    + " AND event_time >= ?", "id=" + expected.get(0), "id=" + expected.get(0) + " %", since);
            assertEquals(List.of(expected.get(1) + "/" + expected.get(2)), rows.stream().map(r -> r.decision + "/" + r.outcome).toList(),
                    "the record of deleting " + expected.get(0));
        }
        browser.manage().deleteAllCookies();
    }

    private static HttpResponse<String> delete(String base, long id, String csrf) throws Exception {
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        // HTTP/1.1, as a browser speaks to a plain-http server (Java's client would otherwise ask to upgrade to h2c).
        var answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(URI.create(base + "/console/searches/" + id + "/delete"))
                .header("Cookie", cookies).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(answer.statusCode() == 303 || answer.body().contains("Not deleted"), answer.body());
        return answer;
    }

    private static long saved(String owner, String name, boolean shared) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var s = new SavedSearch();
            s.owner = owner;
            s.name = name;
            s.query = "subject=alice";
            s.shared = shared;
            s.createdAt = Instant.now();
            s.persist();
            return s.id;
        });
    }

    private static SavedSearch find(long id) {
        return QuarkusTransaction.requiringNew().call(() -> SavedSearch.<SavedSearch>findById(id));
    }
}
