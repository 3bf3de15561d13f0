package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A link on another site cannot make a signed-in officer "read" a console page: a navigation the browser marks
 * {@code Sec-Fetch-Site: cross-site} gets a page that offers to open it, and nothing is shown or recorded; the same
 * page opened from the console itself is shown and recorded. A session's first minute is the sign-in's own return
 * from the identity provider, and is let through.
 */
@QuarkusTest
class CrossSiteLinkTest {

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
    void aLinkFromAnotherSiteIsNeitherShownNorRecordedUntilChosen() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/search", "auditor");
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        String subject = "vip-" + System.nanoTime();
        String path = "/console/search?subject=" + subject + "&uriPrefix=%22%3E%3Cb%3E";

        // Just signed in: the provider's redirects back are cross-site, and the page is served.
        var fresh = get(base + path, cookies, "cross-site");
        assertEquals(200, fresh.statusCode());
        assertFalse(fresh.body().contains("Open this console page?"), fresh.body());
        assertEquals(1, views(subject));

        // A minute on, a link from another site is held back: offered, not shown, not recorded; its text escaped.
        try (Connection su = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            su.createStatement().executeUpdate("UPDATE console_session SET started_at = started_at - interval '5 minutes'"
                    + " WHERE subject = 'auditor'");
        }
        var linked = get(base + path, cookies, "cross-site");
        assertEquals(200, linked.statusCode());
        assertTrue(linked.body().contains("Open this console page?") && linked.body().contains("Nothing was shown and nothing was recorded"),
                linked.body());
        assertTrue(linked.body().contains("href=\"/console/search?subject=" + subject + "&amp;uriPrefix=%22%3E%3Cb%3E\""), linked.body());
        assertEquals(1, views(subject), "the held-back page is not on record as read");

        // Opened from the console itself (same origin), or typed (none), it is shown and recorded.
        for (String site : new String[] {"same-origin", "none"}) {
            var chosen = get(base + path, cookies, site);
            assertEquals(200, chosen.statusCode());
            assertFalse(chosen.body().contains("Open this console page?"), chosen.body());
        }
        assertEquals(3, views(subject));
        browser.manage().deleteAllCookies();
    }

    private static HttpResponse<String> get(String url, String cookies, String site) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookies)
                .header("Sec-Fetch-Site", site).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private static long views(String subject) {
        return AuditRow.list("subject = 'auditor' AND method = 'console/search' AND detail LIKE ?", "%" + subject + "%").size();
    }
}
