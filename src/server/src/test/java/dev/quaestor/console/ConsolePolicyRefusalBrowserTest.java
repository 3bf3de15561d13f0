package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.TestPolicies;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Policy history shows refused reloads: a policy file that failed validation is on record, with the file, the line
 * and the problem, and the record it is in; the active revision kept serving.
 */
@QuarkusTest
class ConsolePolicyRefusalBrowserTest {

    static final String BROKEN = """
            apiVersion: quaestor/v1
            kind: Policy
            metadata: {name: console-refused}
            rules:
              - {id: console-refused-allow, efect: allow, actions: [read], resources: ["test://console-refused/**"], subjects: {roles: [clinician]}}
            """;

    @Test
    void aPolicyFileThatFailedValidationIsOnRecordWithItsFileLineAndProblem() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        Path broken = TestPolicies.DIR.resolve("zz-console-refused.yaml");
        WebDriver browser = Browser.start();
        try {
            Files.writeString(broken, BROKEN);
            Browser.signIn(browser, base + "/console/policy", "auditor");
            // The refusal is recorded before the store takes it up (a refusal that cannot be recorded is not made), so
            // for a moment the page can show the record with the state still ok: wait for both.
            Browser.waiting(browser).until(d -> {
                d.navigate().refresh();
                return !d.findElements(By.id("refused-reloads")).isEmpty()
                        && d.findElement(By.id("refused-reloads")).getText().contains("zz-console-refused.yaml:5")
                        && d.findElement(By.id("policy-status")).getText().contains("degraded");
            });
            var row = browser.findElements(By.cssSelector("#refused-reloads tbody tr")).get(0);
            String problems = row.findElement(By.className("problems")).getText();
            assertTrue(problems.contains("zz-console-refused.yaml:5: unknown key 'efect'"), problems);
            assertTrue(browser.findElement(By.id("policy-status")).getText().contains("degraded"));
            // Activations and refused reloads give their times one way: in UTC, to the second.
            List<String> times = browser.findElements(By.cssSelector("#activations tbody td:first-child, #refused-reloads td.time"))
                    .stream().map(WebElement::getText).toList();
            assertTrue(times.size() >= 2, times.toString());
            times.forEach(t -> assertTrue(t.matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ"), t));
            // The refusal's record opens from the row.
            row.findElement(By.cssSelector("td:last-child a")).click();
            Browser.waiting(browser).until(d -> d.getCurrentUrl().contains("/console/requests/"));
            assertTrue(browser.findElement(By.tagName("main")).getText().contains("POLICY"), browser.findElement(By.tagName("main")).getText());
        } finally {
            Files.deleteIfExists(broken);
            try {
                browser.get(base + "/console/policy");
                Browser.waiting(browser).until(d -> {
                    d.navigate().refresh();
                    return !d.findElement(By.id("policy-status")).getText().contains("degraded");
                });
            } finally {
                browser.quit();
            }
        }
    }
}
