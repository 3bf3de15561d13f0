package dev.quaestor.console;

import dev.quaestor.audit.read.LongReads;
import dev.quaestor.support.Browser;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long reads shared fairly among officers: a second officer opening Integrity while another's check runs waits its
 * turn and gets the page, not a refusal; an officer's third export at once is turned away with a page that says the
 * server is busy (not that access is refused), when to try again (Retry-After), and a link that tries again.
 */
@QuarkusTest
class ConsoleFairShareBrowserTest {

    @Inject
    LongReads longReads;

    @Test
    void aSecondOfficerWaitsForIntegrityAndAThirdExportIsToldWhenToTryAgain() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, base + "/console/search", "auditor");

            // Another officer's check of the whole log is running (the one verify place): this one waits, then has the page.
            var other = longReads.take(LongReads.Kind.VERIFY, "officer-two").place();
            assertNotNull(other);
            var release = new Thread(() -> {
                try {
                    Thread.sleep(1500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                other.close();
            });
            release.start();
            long started = System.nanoTime();
            browser.get(base + "/console/integrity");
            long waitedMs = (System.nanoTime() - started) / 1_000_000;
            release.join();
            assertTrue(browser.findElements(By.id("busy")).isEmpty() && browser.findElements(By.id("refused")).isEmpty(),
                    browser.findElement(By.tagName("body")).getText());
            assertTrue(browser.getTitle().startsWith("Integrity"), browser.getTitle());
            assertTrue(waitedMs >= 1000, "it waited for the other officer's check: " + waitedMs + " ms");

            // Two exports of this officer's own are running: a third is told the server is busy, and when to try again.
            var first = longReads.take(LongReads.Kind.EXPORT, "auditor").place();
            var second = longReads.take(LongReads.Kind.EXPORT, "auditor").place();
            assertNotNull(first);
            assertNotNull(second);
            String export = "/console/export?format=csv&subject=alice";
            browser.get(base + export);
            String busy = browser.findElement(By.id("busy")).getText();
            assertTrue(busy.startsWith("Busy: try again in 10 seconds") && busy.contains("you have 2 exports running or waiting")
                    && busy.contains("Your access is not in question") && busy.contains("on record: request"), busy);
            String again = browser.findElement(By.id("try-again")).getAttribute("href");
            assertEquals(base + export, again);
            String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue())
                    .collect(Collectors.joining("; "));
            var client = HttpClient.newHttpClient();
            var refused = client.send(HttpRequest.newBuilder(URI.create(again)).header("Cookie", cookies).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(429, refused.statusCode());
            assertEquals("10", refused.headers().firstValue("Retry-After").orElse(""));
            first.close();
            second.close();
            var served = client.send(HttpRequest.newBuilder(URI.create(again)).header("Cookie", cookies).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, served.statusCode(), served.body());
        } finally {
            browser.quit();
        }
    }
}
