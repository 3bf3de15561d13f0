package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.SlowProviderFactory;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 2025-03-26 batches: their answers hold at most {@code quaestor.http.max-batch-bytes} of content (400 here), a read
 * past it refused inside the batch and never held; and no record says {@code ok} for an answer the client did not
 * get.
 */
@QuarkusTest
@TestProfile(BatchAnswersTest.SmallBatches.class)
class BatchAnswersTest {

    public static class SmallBatches implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // Reads over 200 bytes are streamed: the handbook's welcome (188) is held, the trial's summary (239) is not.
            return Map.of("quaestor.http.max-batch-bytes", "400", "quaestor.read.buffer-limit", "200");
        }
    }

    @TestHTTPResource("/")
    URL base;

    private static final String WELCOME = "file:///docs/handbook/welcome.md"; // 188 bytes

    @Test
    void aBatchAnswerHoldsAtMostItsBytesAndAReadPastThemIsRefusedNotHeld() {
        String token = TestIssuer.tokenFor("bob");
        String session = Rpc.initialize(token, "2025-03-26");
        var read = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + WELCOME + "\"}}";
        var answers = Rpc.call(token, session, "[" + read.formatted(1) + "," + read.formatted(2) + "," + read.formatted(3) + "]")
                .statusCode(200).extract().jsonPath();
        assertEquals(188, answers.getString("[0].result.contents[0].text").length());
        assertEquals(188, answers.getString("[1].result.contents[0].text").length());
        assertEquals(-32600, answers.getInt("[2].error.code"), "the third would take the answer past 400 bytes");
        assertTrue(answers.getString("[2].error.message").contains("request of its own"));
        assertTrue(answers.getString("[2].error.message").contains("holds at most 400 bytes of content, 24 of them left"),
                answers.getString("[2].error.message"));
        String third = answers.getString("[2].error.data.requestId");
        AuditRow refused = AuditRow.first("request_id = ? AND kind = 'OUTCOME'", third);
        assertEquals("refused-in-batch", refused.outcome, "its record says it was refused, not served");
        assertTrue(refused.detail.contains("quaestor.http.max-batch-bytes 400"), refused.detail);
        assertEquals(0, AuditRow.count("request_id = ? AND outcome = 'ok'", third));
        // Read alone, it is served.
        Rpc.call(token, session, read.formatted(4)).statusCode(200);
    }

    /** A read the batch has room for, but over the size above which reads are streamed, names that size, not the batch's. */
    @Test
    void aReadStreamedForItsSizeIsRefusedInABatchNamingTheBufferLimit() {
        String token = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(token, "2025-03-26");
        String summary = "file:///docs/trials/onco-734/summary.md"; // 239 bytes
        var answers = Rpc.call(token, session, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\","
                + "\"params\":{\"uri\":\"" + summary + "\"}}]").statusCode(200).extract().jsonPath();
        assertEquals(-32600, answers.getInt("[0].error.code"));
        String message = answers.getString("[0].error.message");
        assertTrue(message.contains("over 200 bytes, it is streamed") && !message.contains("400"), message);
        AuditRow refused = AuditRow.first("request_id = ? AND kind = 'OUTCOME'", answers.getString("[0].error.data.requestId"));
        assertEquals("refused-in-batch", refused.outcome);
        assertTrue(refused.detail.contains("quaestor.read.buffer-limit (200 bytes)") && !refused.detail.contains("max-batch-bytes"),
                refused.detail);
    }

    @Test
    void aBatchWhoseClientLeftBeforeItsAnswerHasAnAbortedOutcomeAfterEachOk() throws Exception {
        String token = TestIssuer.tokenFor("bob");
        String session = Rpc.initialize(token, "2025-03-26");
        String slow = "narrow://undelivered-" + System.nanoTime();
        String quick = WELCOME;
        String body = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + slow + "\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + quick + "\"}}]";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        int started = SlowProviderFactory.READS_STARTED.get();
        long before = AuditRow.count("subject = ? AND kind = 'OUTCOME' AND outcome = 'aborted' AND uri = ?", "bob", quick);
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /mcp HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                    + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    + "Mcp-Session-Id: " + session + "\r\nContent-Length: " + bytes.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.flush();
            Wait.until("the slow read to start", Duration.ofSeconds(10), Duration.ofMillis(10),
                    () -> SlowProviderFactory.READS_STARTED.get() != started);
            socket.setSoLinger(true, 0); // leave now, with a reset: the answer has nowhere to go
        }
        Wait.holdsWithin(Duration.ofSeconds(15), Duration.ofMillis(100),
                () -> AuditRow.count("subject = ? AND kind = 'OUTCOME' AND outcome = 'aborted' AND uri = ?", "bob", slow) > 0
                && AuditRow.count("subject = ? AND kind = 'OUTCOME' AND outcome = 'aborted' AND uri = ?", "bob", quick) != before);
        AuditRow ok = AuditRow.first("subject = ? AND kind = 'OUTCOME' AND outcome = 'ok' AND uri = ?", "bob", slow);
        AuditRow aborted = AuditRow.first("subject = ? AND kind = 'OUTCOME' AND outcome = 'aborted' AND uri = ?", "bob", slow);
        assertTrue(aborted != null, "the slow read's answer never reached the client: its record must say so");
        assertEquals(ok.requestId, aborted.requestId, "the same request: ok, then aborted");
        assertTrue(aborted.detail.contains("did not reach the client"), aborted.detail);
        assertEquals(before + 1,
                AuditRow.count("subject = ? AND kind = 'OUTCOME' AND outcome = 'aborted' AND uri = ?", "bob", quick),
                "the other read of the batch was not delivered either");
    }
}
