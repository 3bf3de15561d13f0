package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request's page in words for compliance staff: what the policy decided and what actually happened in one sentence
 * (a rate-limited read is not shown as plain ALLOW), decisions, outcomes and error codes explained beside their codes,
 * and the AI client the MCP client declared, on the page and in the search's results.
 */
@QuarkusTest
class ConsoleRequestWordsBrowserTest {

    private static final String LIMITED = "test-data://limited";
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

    private static String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    /** The value a panel's field shows, by its format name. */
    private static String field(String panel, String name) {
        return browser.findElements(By.cssSelector("#" + panel + " table.fields tr")).stream()
                .filter(r -> r.findElement(By.className("fmt")).getText().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + text(panel)))
                .findElement(By.tagName("td")).getText();
    }

    @Test
    void aRateLimitedReadIsToldAsAllowedByThePolicyThenRefusedByTheLimit() {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String subject = "limited-" + UUID.randomUUID().toString().substring(0, 8);
        String token = TestIssuer.sign(TestIssuer.claims(subject));
        String session = Rpc.initialize(token, "2025-06-18");
        String served = Rpc.read(token, session, LIMITED).statusCode(200).extract().header("X-Request-Id");
        Rpc.read(token, session, LIMITED).statusCode(200);
        String limited = Rpc.read(token, session, LIMITED).statusCode(429).extract().path("error.data.requestId");

        Browser.signIn(browser, base + "/console/requests/" + limited, "auditor");
        String story = text("what-happened");
        assertTrue(story.contains("The policy allowed this read of " + LIMITED + " (rule test-data-readers), but it was rate-limited")
                && story.contains("the rate limit was reached; nothing served") && story.contains("-32004"), story);
        // One record, the DECISION: its decision and outcome explained, side by side, never a bare ALLOW.
        String decision = field("decision", "decision");
        assertEquals("ALLOW (the policy allowed it)", decision);
        assertEquals("rate-limited (refused: the rate limit was reached; nothing served)", field("decision", "outcome"));
        assertEquals("-32004 (rate limit reached)", field("decision", "error"));
        assertEquals("rest-assured/1", field("decision", "client_info"));
        assertTrue(text("decision").contains("Who (subject)"), text("decision"));

        // The read that was served: allowed, and the bytes served.
        browser.get(base + "/console/requests/" + served);
        String servedStory = text("what-happened");
        assertTrue(servedStory.contains("The policy allowed this read of " + LIMITED) && servedStory.contains("bytes were served"), servedStory);

        // A denial: the policy refused it; -32003 explained.
        String denied = Rpc.read(token, session, "test-data://secret").extract().header("X-Request-Id");
        browser.get(base + "/console/requests/" + denied);
        String deniedStory = text("what-happened");
        assertTrue(deniedStory.startsWith("What happened: The policy refused this read of test-data://secret")
                && deniedStory.contains("nothing was served"), deniedStory);
        assertEquals("-32003 (refused by the policy)", field("decision", "error"));

        // The search's results name the AI client as the MCP client declared it.
        browser.get(base + "/console/search?subject=" + subject);
        var clients = browser.findElements(By.cssSelector("#results tbody td.client"));
        assertFalse(clients.isEmpty());
        clients.forEach(c -> assertTrue(c.getText().contains("rest-assured/1"), c.getText()));
    }
}
