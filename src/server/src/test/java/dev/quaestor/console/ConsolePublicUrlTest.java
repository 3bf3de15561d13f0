package dev.quaestor.console;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The public URL the console's sign-in returns to: a bare scheme://host[:port], required in production with the console. */
class ConsolePublicUrlTest {

    @Test
    void onlyABareSchemeHostAndPortIsAccepted() {
        assertNull(ConsolePublicUrl.problem("https://quaestor.example.org", true, true));
        assertNull(ConsolePublicUrl.problem("http://127.0.0.1:8080", true, true));
        for (String bad : new String[] {"https://quaestor.example.org/mcp", "https://quaestor.example.org/", "ftp://h",
                "https://u@quaestor.example.org", "https://quaestor.example.org?x=1", "not a url"}) {
            String problem = ConsolePublicUrl.problem(bad, true, true);
            assertTrue(problem != null && problem.startsWith("quaestor.http.public-url"), bad + ": " + problem);
        }
    }

    @Test
    void itIsRequiredOnlyInProductionWithTheConsole() {
        assertTrue(ConsolePublicUrl.problem(null, true, true).contains("QUAESTOR_HTTP_PUBLIC_URL"));
        assertNull(ConsolePublicUrl.problem(null, false, true));
        assertNull(ConsolePublicUrl.problem(" ", true, false));
    }
}
