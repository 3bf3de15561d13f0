package dev.quaestor.console;

import dev.quaestor.support.ConsoleSession;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's address leads each role to the first page it opens, never to one that refuses it. */
@QuarkusTest
class ConsoleHomeTest {

    private static String home(String user, String opens) {
        var r = ConsoleSession.signIn(user, opens).get("/console");
        assertEquals(303, r.statusCode(), r.body().asString());
        return r.header("Location");
    }

    @Test
    void eachRoleIsSentToAPageItOpens() {
        String auditor = home("auditor", "/console/search");
        assertTrue(auditor.endsWith("/console/search"), auditor);
        String admin = home("admin", "/console/policy");
        assertTrue(admin.endsWith("/console/policy"), admin);
        String caseAdmin = home("caseadmin", "/console/cases");
        assertTrue(caseAdmin.endsWith("/console/cases"), "a case administrator opens cases, not the policy: " + caseAdmin);
    }
}
