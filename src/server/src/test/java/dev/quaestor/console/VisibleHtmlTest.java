package dev.quaestor.console;

import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every console page, not only a request's, shows a right-to-left override in a value someone else chose (a URI a
 * client asked for, a case's title) as the character it is: "report⟨U+202E⟩fdp.exe", never laid out as "reportexe.pdf".
 */
@QuarkusTest
class VisibleHtmlTest {

    private static final String RLO = "\u202E";

    @Test
    void searchesTimelinesWhoReadAndCasesWriteOutCharactersThatReorderText() {
        String token = TestIssuer.sign(TestIssuer.claims("bidi-reader"));
        String session = Rpc.initialize(token, "2025-06-18");
        String uri = "file:///docs/handbook/report" + RLO + "fdp.exe";
        Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + uri + "\"}}");
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType("application/json")
                .body("{\"title\":\"invoice" + RLO + "gnp.exe\",\"description\":\"d\",\"members\":[]}")
                .post("/audit/cases").then().statusCode(201);

        var console = ConsoleSession.signIn("auditor");
        for (String page : new String[] {"/console/search?subject=bidi-reader", "/console/timeline/subject?subject=bidi-reader&refusals=true",
                "/console/who-read?subject=bidi-reader", "/console/cases"}) {
            String html = console.get(page).then().statusCode(200).extract().asString();
            assertFalse(html.contains(RLO), page + " writes the override itself: " + html);
            String shown = page.endsWith("cases") ? "invoice⟨U+202E⟩gnp.exe" : "report⟨U+202E⟩fdp.exe";
            assertTrue(html.contains(shown), page + " should show " + shown + ": " + html);
        }
    }
}
