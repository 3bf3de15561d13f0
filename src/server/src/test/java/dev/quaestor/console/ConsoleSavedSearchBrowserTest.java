package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Saved searches with relative dates, shared with other officers: a range preset keeps "the last 7 days" in the
 * address, a saved search keeps it as typed, a shared one is seen (not deleted) by another officer and opens the
 * same search, and a private one is not seen.
 */
@QuarkusTest
class ConsoleSavedSearchBrowserTest {

    private static WebElement saved(WebDriver d, String name) {
        return d.findElements(By.cssSelector("#saved tbody tr")).stream().filter(r -> r.getText().startsWith(name)).findFirst()
                .orElseThrow(() -> new AssertionError(name + " not in " + d.findElement(By.id("saved")).getText()));
    }

    @Test
    void aSharedSearchOfTheLastSevenDaysStaysRelativeAndOpensForAnotherOfficer() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String subject = "relative-" + UUID.randomUUID().toString().substring(0, 8);
        String token = TestIssuer.sign(TestIssuer.claims(subject));
        Rpc.read(token, Rpc.initialize(token, "2025-06-18"), "test-data://limited").statusCode(200);
        String shared = "shared " + subject;
        String mine = "private " + subject;
        WebDriver first = Browser.start();
        WebDriver second = Browser.start();
        try {
            Browser.signIn(first, base + "/console/search?subject=" + subject, "auditor");
            first.findElements(By.className("range")).stream().filter(a -> a.getText().equals("last 7 days")).findFirst().orElseThrow().click();
            Browser.waiting(first).until(d -> d.getCurrentUrl().contains("from=-7d"));
            assertEquals("-7d", first.findElement(By.name("from")).getAttribute("value"));
            String totals = first.findElement(By.id("totals")).getText();
            assertFalse(first.findElements(By.cssSelector("#results tbody tr")).isEmpty(), totals);
            first.findElement(By.name("name")).sendKeys(shared);
            first.findElement(By.id("save-shared")).click();
            first.findElement(By.id("save-search")).click();
            Browser.waiting(first).until(d -> d.findElement(By.id("saved")).getText().contains(shared));
            first.findElement(By.name("name")).sendKeys(mine);
            first.findElement(By.id("save-search")).click();
            Browser.waiting(first).until(d -> d.findElement(By.id("saved")).getText().contains(mine));
            assertTrue(saved(first, shared).getText().contains("you shared"), saved(first, shared).getText());
            assertTrue(saved(first, shared).getText().contains("from=-7d"), "kept as typed: " + saved(first, shared).getText());

            // Another officer sees the shared one, kept by the first, with no delete; not the private one.
            Browser.signIn(second, base + "/console/search", "auditor2");
            var row = saved(second, shared);
            assertTrue(row.getText().contains("auditor") && row.getText().contains("shared"), row.getText());
            assertTrue(row.findElements(By.tagName("button")).isEmpty(), "only its owner deletes it");
            assertFalse(second.findElement(By.id("saved")).getText().contains(mine));
            row.findElement(By.tagName("a")).click();
            Browser.waiting(second).until(d -> d.getCurrentUrl().contains("from=-7d"));
            assertEquals("-7d", second.findElement(By.name("from")).getAttribute("value"));
            assertEquals(totals, second.findElement(By.id("totals")).getText(), "the same search");
            second.findElements(By.cssSelector("#results tbody tr")).forEach(r -> assertTrue(r.getText().contains(subject), r.getText()));
        } finally {
            first.quit();
            second.quit();
        }
    }
}
