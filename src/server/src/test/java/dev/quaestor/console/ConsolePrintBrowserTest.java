package dev.quaestor.console;

import dev.quaestor.support.Browser;
import dev.quaestor.support.PdfText;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.PrintsPage;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chromium.HasCdp;
import org.openqa.selenium.print.PageSize;
import org.openqa.selenium.print.PrintOptions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A request's page on paper: printed to PDF by Chromium on A4 (and on Letter) it is one page, and in print it shows the fields, the
 * SHA-256 of the bytes served and the checkpoint the records are proven to, and no navigation. A search and a daily review
 * print with their records (the review with its digest and integrity line) and without navigation or forms.
 */
@QuarkusTest
class ConsolePrintBrowserTest {

    private static final String SUMMARY = "file:///docs/trials/onco-734/summary.md";

    @Inject
    dev.quaestor.audit.AuditLog audit;

    @Inject
    dev.quaestor.review.DailyReview reviews;

    @Test
    void aRequestPagePrintsOnOneA4PageWithItsDigestAndCheckpointAndNoNavigation() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String request = Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\""
                + SUMMARY + "\"}}").statusCode(200).extract().header("X-Request-Id");
        assertTrue(audit.signCheckpointNow(), "under a signed checkpoint, so the page names it");
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, base + "/console/requests/" + request, "auditor");
            String sha256 = browser.findElement(By.id("sha256")).getText();
            assertEquals(64, sha256.length(), sha256);
            String checkpoint = browser.findElement(By.id("checkpoint")).getText();
            assertTrue(checkpoint.contains("at size"), checkpoint);
            // Human labels, the format's names beside them.
            String decision = browser.findElement(By.id("decision")).getText();
            assertTrue(decision.contains("Who (subject)") && decision.contains("subject") && decision.contains("Deciding rules"), decision);
            // The proof is folded away, one click from being read, and downloadable.
            assertFalse(browser.findElement(By.id("proof")).isDisplayed());
            browser.findElement(By.id("show-proof")).click();
            assertTrue(browser.findElement(By.id("proof")).getText().startsWith(dev.quaestor.evidence.RecordProof.HEADER));
            browser.findElement(By.id("show-proof")).click();

            var options = new PrintOptions();
            options.setPageSize(new PageSize(29.7, 21.0)); // A4, in centimetres: height, width
            options.setBackground(true);
            byte[] pdf = Base64.getDecoder().decode(((PrintsPage) browser).print(options).getContent());
            var printed = PdfText.of(pdf);
            long pages = printed.pages();
            assertEquals(1, pages, "one A4 page");
            // On paper, as the PDF's own text: the SHA-256 of the bytes served, the checkpoint's root and size, the
            // deciding rule in the policy text, the sentence of what happened; no navigation.
            String paper = printed.text().replaceAll("\\s", "");
            String root = browser.findElement(By.cssSelector("#checkpoint .mono:nth-of-type(2)")).getText();
            assertTrue(paper.contains(sha256), "the SHA-256 is in the PDF's text: " + paper);
            assertTrue(paper.contains(root) && paper.contains("Proventothecheckpoint"), "the checkpoint is in the PDF's text: " + paper);
            assertTrue(paper.contains("-id:pi-read-trials"), "the deciding rule is in the PDF's text: " + paper);
            assertTrue(paper.contains("Whathappened:Thepolicyallowedthisread"), paper);
            assertFalse(paper.contains("Whoreadwhat") || paper.contains("Signout"), "no navigation in the PDF: " + paper);
            // On US Letter too.
            options.setPageSize(new PageSize(27.94, 21.59));
            var letter = PdfText.of(Base64.getDecoder().decode(((PrintsPage) browser).print(options).getContent()));
            assertEquals(1, letter.pages(), "one Letter page");
            assertTrue(letter.text().replaceAll("\\s", "").contains(sha256), "the SHA-256 is on the Letter page");

            // What the printout holds: the page in print media.
            ((HasCdp) browser).executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
            assertFalse(browser.findElement(By.tagName("header")).isDisplayed(), "no navigation on paper");
            assertFalse(browser.findElement(By.id("proof-download")).isDisplayed());
            assertTrue(browser.findElement(By.id("sha256")).isDisplayed() && browser.findElement(By.id("checkpoint")).isDisplayed());
            assertTrue(browser.findElement(By.id("decision")).isDisplayed() && browser.findElement(By.id("outcome")).isDisplayed());
            var marked = browser.findElements(By.cssSelector("#policy-text details.decisive span.add"));
            assertFalse(marked.isEmpty());
            assertTrue(marked.get(0).isDisplayed(), "the deciding rule is on paper");
            System.out.printf("request page printed on A4: %d page(s), %d bytes of PDF%n", pages, pdf.length);
        } finally {
            browser.quit();
        }
    }

    @Test
    void aSearchAndAReviewPrintWithTheirContentAndNoNavigation() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String request = Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\""
                + SUMMARY + "\"}}").statusCode(200).extract().header("X-Request-Id");
        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        reviews.reviewDay(today);
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, base + "/console/search?subject=alice", "auditor");
            assertTrue(browser.findElement(By.id("results")).getText().contains(request.substring(0, 8)), "the read is in the results");
            String search = printA4(browser);
            assertTrue(search.contains(request), "the search's records are on paper: " + search);
            assertFalse(search.contains("Whoreadwhat") || search.contains("Signout"),
                    "no navigation on paper: " + search);

            browser.get(base + "/console/reviews/" + today);
            String digest = browser.findElement(By.cssSelector("#review-state dd:nth-of-type(4)")).getText();
            assertEquals(64, digest.length(), digest);
            String review = printA4(browser);
            assertTrue(review.contains("Reviewof" + today) && review.contains(digest), "the review and its digest on paper: " + review);
            assertTrue(review.contains("integrity") && review.contains("verified"), "the integrity line on paper: " + review);
            assertFalse(review.contains("Whoreadwhat") || review.contains("Signout") || review.contains("Signoffthisreview"),
                    "no navigation and no forms on paper: " + review);
        } finally {
            browser.quit();
        }
    }

    /** The page printed by Chromium on A4, as the PDF's text with the white space taken out. */
    private static String printA4(WebDriver browser) {
        var options = new PrintOptions();
        options.setPageSize(new PageSize(29.7, 21.0));
        return PdfText.of(Base64.getDecoder().decode(((PrintsPage) browser).print(options).getContent())).text().replaceAll("\\s", "");
    }
}
