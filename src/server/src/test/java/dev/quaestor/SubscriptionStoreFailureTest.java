package dev.quaestor;

import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.DriverManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

/**
 * Subscribing again stores the new subscriber in place of the old; if the store fails doing so (a trigger this test
 * installs refuses the new row), the subscribe fails, although the old row is still there: only two subscribes
 * colliding at once may be answered as already done.
 */
@QuarkusTest
class SubscriptionStoreFailureTest {

    private static final String SUBJECT = "subscription-store-fails";
    private static final String URI = "file:///docs/handbook/welcome.md";

    @AfterEach
    void acceptRows() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS test_refuse_subscription ON mcp_subscription");
        }
    }

    @Test
    void aSubscribeAgainThatTheStoreRefusesFails() throws Exception {
        String token = TestIssuer.sign(TestIssuer.claims(SUBJECT));
        String session = Rpc.initialize(token, "2025-06-18");
        String subscribe = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"" + URI + "\"}}";
        Rpc.call(token, session, subscribe).statusCode(200).body("result", notNullValue());

        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_subscription() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.subject = '" + SUBJECT + "' THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$");
            s.execute("DROP TRIGGER IF EXISTS test_refuse_subscription ON mcp_subscription");
            s.execute("CREATE TRIGGER test_refuse_subscription BEFORE INSERT ON mcp_subscription FOR EACH ROW"
                    + " EXECUTE FUNCTION test_refuse_subscription()");
        }
        Rpc.call(token, session, subscribe).statusCode(503).body("result", nullValue()).body("error.code", equalTo(-32005));
    }
}
