package dev.quaestor.mcp.session;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import java.sql.DriverManager;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A DELETE whose session cannot be ended in the database (a trigger this test installs refuses it for one subject): its
 * {@code SESSION_CLOSE} was recorded first, so the answer is 503 with {@code Retry-After}, a further
 * {@code SESSION_CLOSE}, {@code aborted}, says the session goes on, and it does.
 */
@QuarkusTest
class SessionEndFailureTest {

    private static final String SUBJECT = "session-end-fails";

    @BeforeEach
    void refuseTheEnd() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_session_end() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    + "IF NEW.subject = '" + SUBJECT + "' AND NEW.ended_at IS NOT NULL THEN RAISE EXCEPTION 'refused by the test';"
                    + " END IF; RETURN NEW; END $$");
            s.execute("DROP TRIGGER IF EXISTS test_refuse_session_end ON mcp_session");
            s.execute("CREATE TRIGGER test_refuse_session_end BEFORE UPDATE ON mcp_session FOR EACH ROW"
                    + " EXECUTE FUNCTION test_refuse_session_end()");
        }
    }

    @AfterEach
    void acceptEnds() throws Exception {
        try (var c = DriverManager.getConnection(TestDatabase.url(), "postgres", ""); var s = c.createStatement()) {
            s.execute("DROP TRIGGER IF EXISTS test_refuse_session_end ON mcp_session");
        }
    }

    @Test
    void anEndTheStoreRefusesIs503AndOnRecordAsAborted() {
        String token = TestIssuer.sign(TestIssuer.claims(SUBJECT));
        String session = Rpc.initialize(token, "2025-06-18");
        var answer = Rpc.as(token).header("Mcp-Session-Id", session).delete("/mcp").then().statusCode(503)
                .header("Retry-After", "5").extract();
        String requestId = answer.header("X-Request-Id");
        var records = AuditRow.list("request_id = ? AND kind = 'SESSION_CLOSE' ORDER BY seq", requestId);
        assertEquals(List.of("deleted", "aborted"), records.stream().map(r -> r.outcome).toList(), records.toString());
        // The session goes on, as its last record says.
        Rpc.call(token, session, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\"}").statusCode(200);
    }
}
