package dev.quaestor.console;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.startsWith;

/**
 * With the console's sign-in off (the prod default unless QUAESTOR_CONSOLE_ENABLED=true), every console path answers
 * a plain 404 that names the setting, not the bearer-token check's bare 401; the rest of the server is unchanged.
 */
@QuarkusTest
@TestProfile(ConsoleOffTest.Off.class)
class ConsoleOffTest {

    public static class Off implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.oidc.console.tenant-enabled", "false");
        }
    }

    @Test
    void theConsoleSaysItIsNotEnabledAndWhichSettingTurnsItOn() {
        for (String path : new String[] {"/console", "/console/", "/console/search", "/console/signed-out"}) {
            given().redirects().follow(false).when().get(path).then()
                    .statusCode(404)
                    .contentType(startsWith("text/plain"))
                    .header("WWW-Authenticate", emptyOrNullString())
                    .body(containsString("console is not enabled on this deployment (QUAESTOR_CONSOLE_ENABLED)"));
        }
        given().redirects().follow(false).when().post("/console/search").then()
                .statusCode(404).body(containsString("QUAESTOR_CONSOLE_ENABLED=true"));
    }

    @Test
    void otherPathsStillAskForAToken() {
        given().when().get("/audit/search").then().statusCode(401);
        given().when().get("/consoles").then().statusCode(401);
    }
}
