package dev.quaestor.console;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Only the console's own sign-out form ends a session: the public signed-out page, which any site can link to, changes
 * nothing (the session stays live, its cookies are not cleared, nothing is recorded as a sign-out); the refused page
 * offers the same form to sign in as someone else.
 */
@QuarkusTest
class ConsoleSignOutTest {

    private static WebDriver browser;
    private String base;

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

    @BeforeEach
    void clean() {
        base = "http://127.0.0.1:" + RestAssured.port;
        browser.manage().deleteAllCookies();
    }

    private static String cookies() {
        return browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
    }

    private HttpResponse<String> get(String path, String cookies) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + path)).header("Cookie", cookies).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long signOuts(String subject) {
        return AuditRow.list("method = 'console/logout' AND subject = ?", subject).size();
    }

    @Test
    void aLinkToTheSignedOutPageSignsNobodyOut() throws Exception {
        Browser.signIn(browser, base + "/console/search", "auditor2");
        String cookies = cookies();
        long before = signOuts("auditor2");

        // What a link on another site does: a top-level GET, with the console's SameSite=Lax cookies.
        var page = get("/console/signed-out", cookies);
        assertEquals(200, page.statusCode(), page.body());
        assertTrue(page.body().contains("still-signed-in"), page.body());
        assertTrue(page.headers().allValues("Set-Cookie").isEmpty(), "no cookie cleared: " + page.headers().allValues("Set-Cookie"));
        assertEquals(before, signOuts("auditor2"), "no sign-out recorded");
        assertEquals(200, get("/console/search", cookies).statusCode(), "the session is still live");

        // The console's form signs out.
        browser.get(base + "/console/search");
        browser.findElement(By.cssSelector("form[action='/console/logout'] button")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("signed-out")));
        assertEquals(before + 1, signOuts("auditor2"));
        assertEquals(303, get("/console/search", cookies).statusCode(), "now the session is over");
    }

    @Test
    void theRefusedPageSignsOutWithTheConsolesForm() {
        Browser.signIn(browser, base + "/console", "carol");
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("refused")));
        long before = signOuts("carol");
        assertTrue(browser.findElements(By.cssSelector("a[href='/console/signed-out']")).isEmpty(), "no link that would sign out");
        assertFalse(browser.findElement(By.cssSelector("#sign-out-form input[name=csrf]")).getAttribute("value").isEmpty());
        browser.findElement(By.id("sign-out")).click();
        Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("signed-out")));
        assertEquals(before + 1, signOuts("carol"));
    }
}
