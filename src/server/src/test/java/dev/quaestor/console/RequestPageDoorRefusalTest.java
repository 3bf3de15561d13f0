package dev.quaestor.console;

import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A read refused at the door (a URI that is not a string: -32602) is not shown as the policy's refusal on its
 * request page: its decision reads "refused before the policy was asked", it has no deciding rule and no default
 * deny, and the revision shown is said to be the one in force, not what refused it.
 */
@QuarkusTest
class RequestPageDoorRefusalTest {

    @Test
    void aReadRefusedBeforeThePolicyIsNotShownAsThePolicysDenial() {
        String token = TestIssuer.tokenFor("bob");
        String session = Rpc.initialize(token, "2025-06-18");
        String rid = Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":5}}").statusCode(200)
                .extract().header("X-Request-Id");

        String html = ConsoleSession.signIn("auditor").get("/console/requests/" + rid).then().statusCode(200).extract().asString();
        assertTrue(html.contains("refused before the policy was asked"), html);
        assertTrue(html.contains("DENY (refused before the policy was asked)"), html);
        assertFalse(html.contains("the policy refused it"), html);
        assertFalse(html.contains("default deny"), html);
        assertTrue(html.contains("None: the request was refused before the policy was asked about it."), html);
        assertTrue(html.contains("id=\"revision-not-asked\""), html);
    }
}
