package dev.quaestor;

import dev.quaestor.baseline.BaselineConfig;
import dev.quaestor.baseline.BaselineResource;
import dev.quaestor.support.Repo;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.ws.rs.NotFoundException;
import java.nio.file.Files;
import java.util.Optional;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The benchmark baseline: authenticated, confined to its root, off by default. */
@QuarkusTest
class BaselineTest {

    @Test
    void servesTheSameBytesToAnAuthenticatedCaller() throws Exception {
        given().when().get("/baseline/handbook/welcome.md").then().statusCode(401);
        byte[] served = given().auth().oauth2(TestIssuer.tokenFor("alice"))
                .when().get("/baseline/public/logo.png").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(Files.readAllBytes(Repo.CONTENT.resolve("docs/public/logo.png")), served);
    }

    @Test
    void staysInsideItsRoot() {
        String token = TestIssuer.tokenFor("alice");
        // Dot segments, sent or percent-encoded, are refused before any endpoint (the path is not in normal form).
        for (String path : new String[] {"../fixtures.yaml", "%2e%2e/fixtures.yaml", "home/../../fixtures.yaml"}) {
            given().auth().oauth2(token).urlEncodingEnabled(false).when().get("/baseline/" + path).then().statusCode(400);
        }
        // The rest reach the endpoint, which serves nothing outside its root, nor a folder.
        for (String path : new String[] {"..%2Ffixtures.yaml", "nope.md", "home"}) {
            given().auth().oauth2(token).urlEncodingEnabled(false).when().get("/baseline/" + path).then().statusCode(404);
        }
    }

    @Test
    void isOffUnlessEnabled() throws Exception {
        var off = new BaselineResource(new BaselineConfig() {
            @Override
            public boolean enabled() {
                return false;
            }

            @Override
            public Optional<String> root() {
                return Optional.of(Repo.CONTENT.toString());
            }
        });
        assertThrows(NotFoundException.class, () -> off.get("fixtures.yaml"));
    }
}
