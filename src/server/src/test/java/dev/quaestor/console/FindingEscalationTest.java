package dev.quaestor.console;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.review.Finding;
import dev.quaestor.review.Review;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A finding escalated to a case is escalated whole or not at all: the reviewer's longest note still fits the case's
 * note (cut, never refused), and a case with no room for the finding's search refuses the escalation before the
 * finding is marked, so it stays unmarked, can be marked again, and no record says it was escalated.
 */
@QuarkusTest
class FindingEscalationTest {

    private static WebDriver browser;
    private static String base;

    @BeforeAll
    static void startBrowser() throws Exception {
        browser = Browser.start();
    }

    @BeforeEach
    void signIn() {
        if (base == null) {
            base = "http://127.0.0.1:" + RestAssured.port;
            Browser.signIn(browser, base + "/console/reviews", "auditor");
        }
    }

    @AfterAll
    static void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void theLongestNoteAReviewerMayWriteIsEscalatedWithTheFinding() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(40);
        long caseId = openCase("Long notes");
        long finding = review(day, Finding.of(Finding.Category.DENIALS, "carol", 5, "5 request(s) denied"));
        String note = "n".repeat(8000); // the longest the review page takes

        var answer = mark(day, finding, note, caseId);
        assertEquals(303, answer.statusCode(), answer.body());
        assertEquals("ESCALATED", markOf(finding));
        List<String> notes = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).get("/audit/cases/" + caseId)
                .then().statusCode(200).extract().jsonPath().getList("notes.text");
        assertEquals(1, notes.size(), notes.toString());
        assertTrue(notes.get(0).startsWith("Escalated from the review of " + day + ", finding " + finding), notes.get(0));
        assertTrue(notes.get(0).length() <= 8000 && notes.get(0).endsWith("…"), "cut to what a case keeps");
        var changes = AuditRow.list("uri = ? AND kind = 'ADMIN' ORDER BY id", AuditCase.uriOf(caseId));
        assertEquals(List.of("audit/cases/create:ALLOW", "audit/cases/add-search:ALLOW", "audit/cases/add-note:ALLOW"),
                changes.stream().map(r -> r.method + ":" + r.decision).toList());
    }

    @Test
    void aCaseWithNoRoomForTheSearchRefusesBeforeTheFindingIsMarked() throws Exception {
        LocalDate day = LocalDate.now(ZoneOffset.UTC).minusDays(41);
        long caseId = openCase("Full of searches");
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "")) {
            c.createStatement().executeUpdate("INSERT INTO audit_case_search (case_id, name, query, added_by, added_at) SELECT " + caseId
                    + ", 'search ' || n, 'subject=s' || n, 'auditor', now() FROM generate_series(1, 1000) n");
        }
        long finding = review(day, Finding.of(Finding.Category.DENIALS, "dave", 6, "6 request(s) denied"));

        var answer = mark(day, finding, "to the privacy office", caseId);
        assertEquals(400, answer.statusCode(), answer.body());
        assertTrue(answer.body().contains("at most 1000 items"), answer.body());
        assertNull(markOf(finding), "the finding stays unmarked");
        assertEquals(List.of(), AuditRow.list("method = 'review/mark' AND decision = 'ALLOW' AND detail LIKE ?", "finding=" + finding + " %"),
                "no record says it was marked");
        var refused = AuditRow.list("uri = ? AND method = 'audit/cases/add-search' ORDER BY id", AuditCase.uriOf(caseId));
        assertEquals(List.of("DENY"), refused.stream().map(r -> r.decision).toList(), "the refusal is on record under the case");

        // Marked again, without the case: it can be.
        var again = mark(day, finding, "to the privacy office, by mail", null);
        assertEquals(303, again.statusCode(), again.body());
        assertEquals("ESCALATED", markOf(finding));
    }

    private static long openCase(String title) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"" + title + "\"}").post("/audit/cases").then().statusCode(201).extract().jsonPath().getLong("id");
    }

    /** Posts the finding's mark form as the signed-in reviewer, with the page's CSRF token. */
    private static HttpResponse<String> mark(LocalDate day, long finding, String note, Long caseId) throws Exception {
        browser.get(base + "/console/reviews/" + day);
        String csrf = browser.findElement(By.cssSelector("form[action='/console/logout'] input[name=csrf]")).getAttribute("value");
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        String form = "csrf=" + URLEncoder.encode(csrf, StandardCharsets.UTF_8) + "&mark=escalated&note=" + URLEncoder.encode(note,
                StandardCharsets.UTF_8) + (caseId == null ? "" : "&caseId=" + caseId);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(base + "/console/reviews/" + day + "/findings/" + finding
                + "/mark")).header("Cookie", cookies).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String markOf(long finding) throws Exception {
        try (Connection c = DriverManager.getConnection(TestDatabase.url(), "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT mark FROM review_finding WHERE id = " + finding)) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    /** A verified, unsigned review of {@code day} holding {@code finding}; its id. */
    private static long review(LocalDate day, Finding finding) {
        return QuarkusTransaction.requiringNew().call(() -> {
            var r = new Review();
            r.day = day;
            r.generatedAt = Instant.now();
            r.generatedBy = "test";
            r.deadline = Instant.now().plusSeconds(3600);
            r.integrityOk = true;
            r.integrity = "verified";
            r.digest = "0".repeat(64);
            finding.review = r;
            r.findings.add(finding);
            r.persist();
            Review.flush();
            return finding.id;
        });
    }
}
