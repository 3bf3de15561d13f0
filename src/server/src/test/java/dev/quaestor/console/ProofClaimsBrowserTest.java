package dev.quaestor.console;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * What the request and case pages say of a proof where checkpoints are not anchored (no time-stamping authority
 * configured, as in development): signed by the log's key and not time-stamped, although each checkpoint has its
 * {@code time} line; and the offline check commands they print name no TSA root, which the reader could not have.
 */
@QuarkusTest
class ProofClaimsBrowserTest {

    @Inject
    dev.quaestor.audit.AuditLog audit;

    @Test
    void withoutAnchoringThePagesClaimNoTimeStampAndAskForNoTsaRoot() throws Exception {
        String base = "http://127.0.0.1:" + RestAssured.port;
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String request = Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
                + "\"file:///docs/handbook/welcome.md\"}}").statusCode(200).extract().header("X-Request-Id");
        assertTrue(audit.signCheckpointNow(), "under a signed checkpoint, so the page names it");
        String auditor = TestIssuer.tokenFor("auditor");
        long caseId = given().header("Authorization", "Bearer " + auditor).contentType("application/json")
                .body("{\"title\":\"Proof claims\",\"description\":\"what the pages say\"}").post("/audit/cases")
                .then().statusCode(201).extract().jsonPath().getLong("id");
        WebDriver browser = Browser.start();
        try {
            Browser.signIn(browser, base + "/console/requests/" + request, "auditor");
            String checkpoint = browser.findElement(By.id("checkpoint")).getText();
            assertTrue(checkpoint.contains("time 20"), "the checkpoint's time line is shown: " + checkpoint);
            String claim = browser.findElement(By.id("proof-claim")).getText();
            assertTrue(claim.startsWith("Signed by the log's key (not time-stamped)"), claim);
            assertFalse(claim.contains("time-stamped by the TSA") || claim.contains("--tsa-ca"), claim);
            assertEquals(0, browser.findElements(By.cssSelector("#proven .stamped")).size(), "no checkpoint marked time-stamped");
            String bundle = browser.findElement(By.id("proven")).getText();
            assertTrue(bundle.contains("bundle check FILE.zip --trust audit.vkey)"), "no --tsa-ca without a TSA: " + bundle);

            browser.get(base + "/console/cases/" + caseId);
            String casePanel = browser.findElement(By.id("case")).getText();
            assertTrue(casePanel.contains("bundle check FILE.zip --trust audit.vkey)"), "no --tsa-ca without a TSA: " + casePanel);
        } finally {
            browser.quit();
        }
    }
}
