package dev.quaestor.console;

import dev.quaestor.review.DailyReview;
import dev.quaestor.support.AnchoredProfile;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPolicies;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * Writes the README's screenshots of the console's main pages to the directory named by the system property
 * {@code quaestor.screenshots} ({@code scripts/console-screenshots.sh} sets it); does nothing without it. The server
 * anchors its checkpoints ({@link AnchoredProfile}, booted once for this and AnchoringTest), so the integrity page
 * shows its time-stamps.
 */
@QuarkusTest
@TestProfile(AnchoredProfile.class)
class ConsoleScreenshots {

    @Inject
    DailyReview reviews;

    @Inject
    dev.quaestor.audit.AuditLog audit;

    @Inject
    dev.quaestor.audit.read.LongReads longReads;

    @Test
    void screenshots() throws Exception {
        String dir = System.getProperty("quaestor.screenshots");
        Assumptions.assumeTrue(dir != null && !dir.isBlank(), "set -Dquaestor.screenshots=DIR to write the screenshots");
        Path out = Path.of(dir);
        Files.createDirectories(out);
        String base = "http://127.0.0.1:" + RestAssured.port;
        traffic();
        // A second policy revision, delivered with an annotation, for the history and its diff.
        Path annotation = TestPolicies.DIR.resolve(".revision-annotation");
        Path added = TestPolicies.DIR.resolve("zz-console-history.yaml");
        Path broken = TestPolicies.DIR.resolve("zz-console-refused.yaml");
        String limited = rateLimited();
        Files.writeString(annotation, "commit 1a2b3c4: clinicians may read the console fixtures\n");
        Files.writeString(added, ConsoleBrowserTest.CHANGED_POLICY);
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        // bob is refused by the admin API: a finding of today's review, marked before it is signed off.
        RestAssured.given().header("Authorization", "Bearer " + TestIssuer.tokenFor("bob")).get("/admin/policy").then().statusCode(403);
        reviews.reviewDay(today);
        WebDriver d = Browser.start();
        try {
            Browser.signIn(d, base + "/console/search?subject=alice", "auditor");
            shot(d, out, "console-search.png", 1000);
            d.get(base + "/console/who-read?uriPrefix=file%3A%2F%2F%2Fdocs%2F");
            shot(d, out, "console-who-read.png", 900);
            // Ranges relative to now, and a search shared with the other officers.
            d.get(base + "/console/search?subject=alice&from=-7d");
            d.findElement(By.name("name")).sendKeys("Alice, last 7 days");
            d.findElement(By.id("save-shared")).click();
            d.findElement(By.id("save-search")).click();
            Browser.waiting(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("saved"), "Alice, last 7 days"));
            d.manage().window().setSize(new Dimension(1360, 700));
            Thread.sleep(100);
            ((org.openqa.selenium.JavascriptExecutor) d).executeScript("arguments[0].scrollIntoView()", d.findElement(By.id("ranges")));
            Files.write(out.resolve("console-saved-searches.png"), ((TakesScreenshot) d).getScreenshotAs(OutputType.BYTES));
            d.get(base + "/console/timeline/resource?uri=file%3A%2F%2F%2Fdocs%2Ftrials%2Fonco-734%2F&refusals=true");
            shot(d, out, "console-timeline.png", 800);
            d.get(base + "/console/search?subject=alice&kind=OUTCOME&uriPrefix=file%3A%2F%2F%2Fdocs%2Ftrials%2Fonco-734%2Fsummary.md");
            d.findElements(By.className("record-link")).get(0).click();
            Browser.waiting(d).until(ExpectedConditions.presenceOfElementLocated(By.id("decision-outcome")));
            shot(d, out, "console-request.png", 1500);
            // The same page as it prints.
            ((org.openqa.selenium.chromium.HasCdp) d).executeCdpCommand("Emulation.setEmulatedMedia", java.util.Map.of("media", "print"));
            shot(d, out, "console-request-print.png", 1100);
            ((org.openqa.selenium.chromium.HasCdp) d).executeCdpCommand("Emulation.setEmulatedMedia", java.util.Map.of("media", ""));
            d.get(base + "/console/requests/" + limited);
            shot(d, out, "console-request-rate-limited.png", 900);
            d.get(base + "/console/integrity");
            shot(d, out, "console-integrity.png", 750);
            d.get(base + "/console/policy");
            Browser.waiting(d).until(x -> {
                x.navigate().refresh();
                return x.findElement(By.id("activations")).getText().contains("commit 1a2b3c4");
            });
            shot(d, out, "console-policy-history.png", 800);
            d.findElements(By.cssSelector("#activations tbody tr")).get(0).findElement(By.partialLinkText("diff from")).click();
            shot(d, out, "console-policy-diff.png", 700);
            d.get(base + "/console/reviews");
            shot(d, out, "console-reviews.png", 900);
            Files.writeString(broken, ConsolePolicyRefusalBrowserTest.BROKEN);
            d.get(base + "/console/policy");
            Browser.waiting(d).until(x -> {
                x.navigate().refresh();
                return !x.findElements(By.id("refused-reloads")).isEmpty();
            });
            d.manage().window().setSize(new Dimension(1360, 500));
            Thread.sleep(100);
            ((org.openqa.selenium.JavascriptExecutor) d).executeScript("arguments[0].scrollIntoView()", d.findElement(By.id("refused-reloads")));
            Files.write(out.resolve("console-policy-refused.png"), ((TakesScreenshot) d).getScreenshotAs(OutputType.BYTES));
            Files.deleteIfExists(broken);
            // An officer's third export at once: busy, and when to try again.
            var first = longReads.take(dev.quaestor.audit.read.LongReads.Kind.EXPORT, "auditor").place();
            var second = longReads.take(dev.quaestor.audit.read.LongReads.Kind.EXPORT, "auditor").place();
            try {
                d.get(base + "/console/export?format=csv&subject=alice");
                shot(d, out, "console-busy.png", 560);
            } finally {
                first.close();
                second.close();
            }
            d.get(base + "/console/reviews/" + today);
            for (var row : d.findElements(By.cssSelector("#findings tbody tr"))) {
                if (!row.getText().contains("bob") || row.findElements(By.className("mark-form")).isEmpty()) {
                    continue;
                }
                var form = row.findElement(By.className("mark-form"));
                form.findElement(By.name("note")).sendKeys("Asked bob: he opened the admin page by mistake.");
                new org.openqa.selenium.support.ui.Select(form.findElement(By.name("mark"))).selectByValue("dismissed");
                form.findElement(By.tagName("button")).click();
                Browser.waiting(d).until(ExpectedConditions.presenceOfElementLocated(By.id("review-state")));
                break;
            }
            if (!d.findElements(By.cssSelector("#sign-off-form textarea")).isEmpty()) {
                d.findElement(By.cssSelector("#sign-off-form textarea")).sendKeys("Checked the day's findings: bob's refusal was a mistaken click; nothing to follow up.");
                d.findElement(By.id("sign-off")).click();
                Browser.waiting(d).until(ExpectedConditions.textToBePresentInElementLocated(By.id("review-state"), "signed off"));
            }
            shot(d, out, "console-review.png", 1000);
        } finally {
            d.quit();
            Files.deleteIfExists(added);
            Files.deleteIfExists(annotation);
            Files.deleteIfExists(broken);
        }
    }

    /** A read allowed by the policy and refused by the rate limit: its request id. */
    private static String rateLimited() {
        String token = TestIssuer.tokenFor("erin");
        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.read(token, session, "test-data://limited");
        Rpc.read(token, session, "test-data://limited");
        return Rpc.read(token, session, "test-data://limited").statusCode(429).extract().path("error.data.requestId");
    }

    private void traffic() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (String uri : new String[] {"file:///docs/trials/onco-734/summary.md", "file:///docs/handbook/welcome.md",
                "file:///docs/trials/onco-734/raw/sample-001.bin", "file:///docs/trials/onco-734/summary.md"}) {
            Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}")
                    .statusCode(200);
        }
        String bob = TestIssuer.tokenFor("bob");
        String bobSession = Rpc.initialize(bob, "2025-06-18");
        Rpc.call(bob, bobSession, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"file:///docs/trials/onco-734/summary.md\"}}").statusCode(200);
        org.junit.jupiter.api.Assertions.assertTrue(audit.signCheckpointNow(), "under a signed checkpoint, so proofs exist");
        // Under a time-stamped checkpoint too, for the integrity page.
        String auditor = TestIssuer.tokenFor("auditor");
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> io.restassured.RestAssured.given()
                .header("Authorization", "Bearer " + auditor).get("/audit/verify").then().extract().jsonPath()
                .getLong("anchoring.anchoredThrough") > 0);
    }

    private static void shot(WebDriver d, Path dir, String name, int height) throws Exception {
        d.manage().window().setSize(new Dimension(1360, height));
        Thread.sleep(100); // the resized window lays itself out again
        Files.write(dir.resolve(name), ((TakesScreenshot) d).getScreenshotAs(OutputType.BYTES));
    }
}
