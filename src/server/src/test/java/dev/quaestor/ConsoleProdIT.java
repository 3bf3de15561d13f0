package dev.quaestor;

import dev.quaestor.support.Browser;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ScratchDatabase;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.SigningKeyFile;
import dev.quaestor.support.TestIssuer;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.HashMap;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console in the packaged server's production profile, configured as docs/operations.md says
 * (QUAESTOR_CONSOLE_ENABLED and the console's client): an auditor signs in through the code flow in headless
 * Chromium, the session cookie is Secure and HttpOnly, pages are on record with how the auditor signed in.
 */
class ConsoleProdIT {

    @Test
    void anAuditorSignsInToTheConsoleOfTheProductionServer() throws Exception {
        new TestIssuer().start();
        String dbUrl = ScratchDatabase.recreate("console_prod");
        Path key = SigningKeyFile.write(Path.of("target", "console-prod-audit-key.pem"));
        var env = new HashMap<String, String>();
        env.put("QUAESTOR_OIDC_ISSUER", TestIssuer.issuer());
        env.put("QUAESTOR_OIDC_AUDIENCE", TestIssuer.AUDIENCE);
        env.put("QUAESTOR_DB_URL", dbUrl);
        env.put("QUAESTOR_DB_USER", "quaestor_app");
        env.put("QUAESTOR_DB_PASSWORD", "trust");
        env.put("QUAESTOR_DB_OWNER_USER", "postgres");
        env.put("QUAESTOR_DB_OWNER_PASSWORD", "trust");
        env.put("QUAESTOR_DB_APP_ROLE", "quaestor_app");
        env.put("QUAESTOR_AUDIT_SIGNING_KEY_FILE", key.toString());
        env.put("QUAESTOR_POLICIES_PATH", Repo.POLICIES.toString());
        env.put("QUAESTOR_CONSOLE_ENABLED", "true");
        env.put("QUAESTOR_CONSOLE_CLIENT_ID", TestIssuer.CONSOLE_CLIENT);
        env.put("QUAESTOR_CONSOLE_CLIENT_SECRET", TestIssuer.CONSOLE_SECRET);
        try (var server = new ServerProcess("console-prod", env)) {
            server.start();
            server.awaitReady(Duration.ofSeconds(90));
            var browser = Browser.start();
            try {
                Browser.signIn(browser, server.url() + "/console", "auditor");
                Browser.waiting(browser).until(ExpectedConditions.presenceOfElementLocated(By.id("search-form")));
                var session = browser.manage().getCookies().stream().filter(c -> c.getName().startsWith("q_session_console"))
                        .findFirst().orElseThrow();
                assertTrue(session.isSecure() && session.isHttpOnly(), session.toString());
                assertEquals("/console", session.getPath());
                browser.get(server.url() + "/console/integrity");
                assertTrue(browser.findElement(By.id("verdict")).getText().contains("Everything verifies"));
            } finally {
                browser.quit();
            }
        }
        try (var c = DriverManager.getConnection(dbUrl, "postgres", "");
                var rs = c.createStatement().executeQuery("SELECT auth_context FROM audit_entry WHERE method = 'console/integrity'")) {
            assertTrue(rs.next(), "the page view is on record");
            assertEquals("acr=" + TestIssuer.CONSOLE_ACR + ";amr=pwd,otp", rs.getString(1));
        }
    }
}
