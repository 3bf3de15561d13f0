package dev.quaestor.console;

import dev.quaestor.admin.RecordedHistory;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Browser;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebDriver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A revision's stored files are checked against the revision before they are shown or replayed: files a database
 * administrator changed are never shown as the policy in force (the console says they were changed) and never
 * replayed by what-if.
 */
@QuarkusTest
class AlteredRevisionTest {

    private static final String MARK = "# changed in the database";
    private static WebDriver browser;

    @Inject
    PolicyStore store;
    @Inject
    RecordedHistory history;

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

    @Test
    void filesChangedInTheDatabaseAreNeitherShownNorReplayed() throws Exception {
        String revision = store.current().revision();
        Wait.until("the active revision to be stored", Duration.ofSeconds(10), Duration.ofMillis(100), () -> stored(revision));
        assertNotNull(history.revision(revision), "stored as it was: replayed");
        // A request decided under that revision, whose page shows the revision's files.
        String token = TestIssuer.tokenFor("bob");
        String session = Rpc.initialize(token, "2025-06-18");
        Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\",\"params\":{}}").statusCode(200);
        String requestId = AuditRow.first("kind = 'DECISION' AND subject = 'bob' AND policy_revision = ? ORDER BY id DESC", revision).requestId;
        assertNotNull(requestId);
        String base = "http://127.0.0.1:" + RestAssured.port;
        Browser.signIn(browser, base + "/console/search", "auditor");
        String cookies = browser.manage().getCookies().stream().map(c -> c.getName() + "=" + c.getValue()).collect(Collectors.joining("; "));
        assertEquals(200, get(base + "/console/policy/revisions/" + revision, cookies).statusCode());

        alter(revision, true);
        try {
            var page = get(base + "/console/policy/revisions/" + revision, cookies);
            assertEquals(409, page.statusCode(), page.body());
            assertTrue(page.body().contains("changed in the database after they were stored"), page.body());
            assertFalse(page.body().contains(MARK), "the changed text is not shown");
            var request = get(base + "/console/requests/" + requestId, cookies);
            assertEquals(200, request.statusCode());
            assertTrue(request.body().contains("changed in the database after they were stored"), request.body());
            assertFalse(request.body().contains(MARK), "the changed text is not shown as the policy in force");
            assertNull(history.revision(revision), "not replayed");
        } finally {
            alter(revision, false);
        }
        assertNotNull(history.revision(revision));
    }

    private static HttpResponse<String> get(String url, String cookies) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).header("Cookie", cookies).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Connection dba() throws Exception {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    private static boolean stored(String revision) throws Exception {
        try (var c = dba(); var ps = c.prepareStatement("SELECT count(*) FROM policy_revision_file WHERE revision = ?")) {
            ps.setString(1, revision);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) > 0;
            }
        }
    }

    /** What a database administrator can do: change a stored file's text (or put it back). */
    private static void alter(String revision, boolean change) throws Exception {
        try (var c = dba(); var ps = c.prepareStatement(change
                ? "UPDATE policy_revision_file SET content = content || ? WHERE revision = ? AND name = (SELECT min(name) FROM policy_revision_file WHERE revision = ?)"
                : "UPDATE policy_revision_file SET content = replace(content, ?, '') WHERE revision = ? AND name = (SELECT min(name) FROM policy_revision_file WHERE revision = ?)")) {
            ps.setString(1, "\n" + MARK);
            ps.setString(2, revision);
            ps.setString(3, revision);
            assertEquals(1, ps.executeUpdate());
        }
    }
}
