package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signed in for the working day: with an identity provider whose tokens live 6 seconds, an officer who keeps working
 * stays signed in through more than three of them, in one console session, the provider's tokens renewed with the
 * refresh token each time they expire.
 */
@QuarkusTest
class ConsoleWorkingDayBrowserTest {

    private static final Duration TOKEN_LIFE = Duration.ofSeconds(6);
    /** How often the officer opens a page: several times per token, as someone working does. */
    private static final Duration BETWEEN_PAGES = Duration.ofMillis(1500);

    @Test
    void anActiveOfficerOutlivesThreeOfTheProvidersAccessTokens() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        TestIssuer.codeFlowTokensLive(TOKEN_LIFE);
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, base + "/console/search", "auditor");
            String session = browser.manage().getCookieNamed(ConsoleCookies.SESSION).getValue();
            long refreshed = TestIssuer.refreshes();
            Instant signedIn = Instant.now();
            int pages = 0;
            // A page every second and a half for three token lifetimes and more: each token is renewed at the first page after
            // it expires, up to a page's interval late, so the third renewal comes by 3 × (life + interval).
            Duration working = TOKEN_LIFE.plus(BETWEEN_PAGES).multipliedBy(3).plusSeconds(8);
            while (Duration.between(signedIn, Instant.now()).compareTo(working) < 0) {
                Thread.sleep(BETWEEN_PAGES.toMillis());
                browser.get(base + "/console/search?subject=auditor&size=25");
                pages++;
                assertTrue(browser.getCurrentUrl().startsWith(base + "/console/search"),
                        "still signed in after " + Duration.between(signedIn, Instant.now()).toSeconds() + " s: " + browser.getCurrentUrl());
                assertEquals("Search the audit log", browser.findElement(By.tagName("h1")).getText());
            }
            long renewals = TestIssuer.refreshes() - refreshed;
            assertTrue(renewals >= 3, "the provider's tokens were renewed " + renewals + " times in "
                    + Duration.between(signedIn, Instant.now()).toSeconds() + " s");
            assertEquals(session, browser.manage().getCookieNamed(ConsoleCookies.SESSION).getValue(),
                    "one console session all along: renewing the tokens is not a new sign-in");
            System.out.printf("signed in %d s with %d-second tokens: %d pages, %d renewals, one console session%n",
                    Duration.between(signedIn, Instant.now()).toSeconds(), TOKEN_LIFE.toSeconds(), pages, renewals);
        } finally {
            browser.quit();
            TestIssuer.codeFlowTokensLive(null);
        }
    }
}
