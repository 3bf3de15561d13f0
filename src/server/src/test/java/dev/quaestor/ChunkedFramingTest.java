package dev.quaestor;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ErrorLog;
import dev.quaestor.support.Modern;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A request framed by Transfer-Encoding (here with a Content-Length beside it, the shape of request smuggling) is
 * answered and its connection closed, so a request written after it on the same connection is never read; a request
 * of known length keeps its connection, and one pipelined after it is answered. Written by hand on a socket: an HTTP
 * client would not send both headers.
 */
@QuarkusTest
class ChunkedFramingTest {

    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");

    @TestHTTPResource("/")
    URI server;

    private final String alice = TestIssuer.tokenFor("alice");

    @Test
    void aChunkedRequestWithALengthBesideItIsAnsweredAndItsConnectionClosed() throws Exception {
        byte[] body = Modern.body(1, "server/discover", null).getBytes(StandardCharsets.UTF_8);
        // Written in the same packet after it: a read by a subject of its own, which would leave records if it ran.
        String smuggler = "smuggled-" + System.nanoTime();
        byte[] read = Modern.body(2, "resources/read", "{\"uri\":\"file:///docs/handbook/welcome.md\"}")
                .getBytes(StandardCharsets.UTF_8);
        String smuggled = "POST /mcp HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + TestIssuer.sign(TestIssuer.claims(smuggler))
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: resources/read\r\nMcp-Name: file:///docs/handbook/welcome.md\r\n"
                + "Content-Length: " + read.length + "\r\n\r\n" + new String(read, StandardCharsets.UTF_8);
        String request = post("Transfer-Encoding: chunked\r\nContent-Length: " + body.length + "\r\n")
                + Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n"
                + smuggled;
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            String answer;
            try {
                answer = readToEnd(socket.getInputStream());
            } catch (SocketTimeoutException e) {
                fail("the connection was left open after a chunked request");
                return;
            }
            Matcher status = STATUS_LINE.matcher(answer);
            assertTrue(status.find(), answer);
            assertEquals("200", status.group(1), answer);
            assertTrue(answer.contains("\"resultType\""), "the request itself is answered whole: " + answer);
            assertTrue(answer.toLowerCase().contains("\r\nconnection: close\r\n"), answer);
            assertTrue(!status.find(), "the request written after it is not answered: " + answer);
        }
        // Nor handled: a read that ran would have its DECISION committed before its answer was written.
        Thread.sleep(1_000);
        assertEquals(0, AuditRow.count("subject = ?", smuggler), "the smuggled read left records: it was handled");
    }

    @Test
    void aRequestOfKnownLengthKeepsItsConnection() throws IOException {
        byte[] body = Modern.body(2, "server/discover", null).getBytes(StandardCharsets.UTF_8);
        String request = post("Content-Length: " + body.length + "\r\n") + new String(body, StandardCharsets.UTF_8)
                + "GET /q/health/ready HTTP/1.1\r\nHost: " + host() + "\r\n\r\n";
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(3_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.UTF_8));
            var got = new ByteArrayOutputStream();
            try {
                socket.getInputStream().transferTo(got);
                fail("the server closed a connection it should keep: " + got);
            } catch (SocketTimeoutException e) {
                // still open, as it should be; what arrived is below
            }
            Matcher status = STATUS_LINE.matcher(got.toString(StandardCharsets.UTF_8));
            int answers = 0;
            while (status.find()) {
                assertEquals("200", status.group(1), got.toString(StandardCharsets.UTF_8));
                answers++;
            }
            assertEquals(2, answers, "both answered: " + got);
        }
    }

    /**
     * A chunked body whose framing breaks (a chunk size that is no hex number) from an authenticated caller is refused
     * 400 in words, its connection closed, and left on record as a refusal at the door that spends a token, as a body
     * too large is: before, the connection was dropped unanswered, an error was logged and nothing was recorded.
     */
    @Test
    void aBrokenChunkIsRefusedInWordsAndOnRecord() throws Exception {
        String subject = "broken-chunk-" + System.nanoTime();
        String head = post("Transfer-Encoding: chunked\r\n", TestIssuer.sign(TestIssuer.claims(subject)));
        String chunks = "5\r\n{\"jso\r\nzz\r\n\"2.0\"}\r\n0\r\n\r\n";
        var answer = new String[1];
        var errors = ErrorLog.errorsWhile(() -> {
            try (var socket = new Socket(server.getHost(), server.getPort())) {
                socket.setSoTimeout(10_000);
                // The body after its headers, as a client streaming it sends it: read by then (a break in the packet
                // that carries the headers may come before the body is listened for, and ends as a body timeout).
                socket.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
                socket.getOutputStream().flush();
                Thread.sleep(300);
                socket.getOutputStream().write(chunks.getBytes(StandardCharsets.UTF_8));
                answer[0] = readToEnd(socket.getInputStream());
            }
        });
        Matcher status = STATUS_LINE.matcher(answer[0]);
        assertTrue(status.find(), "answered, not dropped: " + answer[0]);
        assertEquals("400", status.group(1), answer[0]);
        assertTrue(answer[0].endsWith("\r\n\r\nBad Request: the request body's chunked framing is broken\n"), answer[0]);
        assertTrue(answer[0].toLowerCase().contains("\r\nconnection: close\r\n"), answer[0]);
        Matcher id = Pattern.compile("(?i)\r\nx-request-id: (\\S+)\r\n").matcher(answer[0]);
        assertTrue(id.find(), answer[0]);
        // Answered before its record (the connection would be gone by then), recorded right after.
        Wait.until("the refusal is on record", java.time.Duration.ofSeconds(10), () -> AuditRow.count("subject = ?", subject) > 0);
        AuditRow row = AuditRow.first("subject = ?", subject);
        assertEquals(id.group(1), row.requestId);
        assertEquals("DECISION", row.kind);
        assertEquals("DENY", row.decision);
        assertEquals("unreadable", row.outcome);
        assertTrue(row.detail.startsWith("chunked framing broken after 5 bytes"), row.detail);
        assertEquals(1, AuditRow.count("subject = ?", subject));
        assertEquals(java.util.List.of(), errors, "a caller's broken body is not a server error");
    }

    /**
     * The records of broken bodies wait on workers (each charges the rate limit, then waits for its commit) after the
     * answer has gone: a caller may have at most its body readers' share of them waiting (8). With the audit table
     * locked so that none commits, a caller breaking off twelve bodies has eight charged and waiting; the other four
     * are recorded at once, not charged, saying why; none is lost, and every one was answered 400.
     */
    @Test
    void brokenBodiesWaitingForTheirRecordsAreBoundedPerCaller() throws Exception {
        String subject = "breaker-" + System.nanoTime();
        String head = post("Transfer-Encoding: chunked\r\n", TestIssuer.sign(TestIssuer.claims(subject)));
        int sent = 12;
        try (var c = java.sql.DriverManager.getConnection(dev.quaestor.support.TestDatabase.url(), "postgres", "")) {
            c.setAutoCommit(false);
            c.createStatement().execute("LOCK TABLE audit_entry IN EXCLUSIVE MODE");
            for (int i = 0; i < sent; i++) {
                try (var socket = new Socket(server.getHost(), server.getPort())) {
                    socket.setSoTimeout(10_000);
                    socket.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
                    socket.getOutputStream().flush();
                    Thread.sleep(100);
                    socket.getOutputStream().write("5\r\n{\"jso\r\nzz\r\n".getBytes(StandardCharsets.UTF_8));
                    String answer = readToEnd(socket.getInputStream());
                    Matcher status = STATUS_LINE.matcher(answer);
                    assertTrue(status.find(), answer);
                    assertEquals("400", status.group(1), "answered while its record waits: " + answer);
                }
            }
            assertEquals(0, AuditRow.count("subject = ?", subject), "the lock holds every record back");
            c.rollback();
        }
        Wait.until("every broken body is on record", java.time.Duration.ofSeconds(15),
                () -> AuditRow.count("subject = ?", subject) == sent);
        assertEquals(sent - 8, AuditRow.count("subject = ? and outcome = 'unreadable' and detail like ?", subject,
                "%; not charged: at most 8 of this caller's broken bodies were waiting to be recorded"));
        assertEquals(8, AuditRow.count("subject = ? and outcome = 'unreadable' and detail not like ?", subject,
                "%not charged%"));
    }

    /** A caller that closes its connection part-way through its body is on record as such, and logs no error. */
    @Test
    void aBodyBrokenOffByItsCallerIsOnRecord() throws Exception {
        String subject = "left-" + System.nanoTime();
        var errors = ErrorLog.errorsWhile(() -> {
            try (var socket = new Socket(server.getHost(), server.getPort())) {
                socket.getOutputStream().write((post("Content-Length: 100\r\n", TestIssuer.sign(TestIssuer.claims(subject)))
                        + "{\"jsonrpc\":").getBytes(StandardCharsets.UTF_8));
                socket.getOutputStream().flush();
                Thread.sleep(300);
            }
            Wait.until("the refusal is on record", java.time.Duration.ofSeconds(10), () -> AuditRow.count("subject = ?", subject) > 0);
        });
        AuditRow row = AuditRow.first("subject = ?", subject);
        assertEquals("unreadable", row.outcome);
        assertEquals("connection closed after 11 bytes received", row.detail);
        assertEquals(java.util.List.of(), errors);
    }

    /**
     * A transfer coding other than chunked alone ({@code gzip, chunked}) is not one this server decodes: 501, as RFC
     * 9112 (section 6.1) advises, before anything reads the body, and the connection closed. Before, the body was read
     * by its chunks and the gzip ignored.
     */
    @Test
    void aTransferCodingOtherThanChunkedIsNotImplemented() throws Exception {
        byte[] body = Modern.body(1, "server/discover", null).getBytes(StandardCharsets.UTF_8);
        String chunks = Integer.toHexString(body.length) + "\r\n" + new String(body, StandardCharsets.UTF_8) + "\r\n0\r\n\r\n";
        for (String codings : java.util.List.of("gzip, chunked", "chunked, chunked", "identity", "Chunked\r\nTransfer-Encoding: gzip")) {
            try (var socket = new Socket(server.getHost(), server.getPort())) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write((post("Transfer-Encoding: " + codings + "\r\n", alice) + chunks)
                        .getBytes(StandardCharsets.UTF_8));
                String answer = readToEnd(socket.getInputStream());
                Matcher status = STATUS_LINE.matcher(answer);
                assertTrue(status.find(), codings + ": " + answer);
                assertEquals("501", status.group(1), codings + ": " + answer);
                assertTrue(answer.endsWith("\r\n\r\nNot Implemented: a transfer coding other than chunked\n"), answer);
            }
        }
        // Chunked alone, in any letter case, is read as before.
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write((post("Transfer-Encoding: Chunked\r\n", alice) + chunks).getBytes(StandardCharsets.UTF_8));
            String answer = readToEnd(socket.getInputStream());
            Matcher status = STATUS_LINE.matcher(answer);
            assertTrue(status.find(), answer);
            assertEquals("200", status.group(1), answer);
        }
    }

    /**
     * A chunked request answered before its body is read (here a refused token: 401) is not closed under the client
     * while it still sends: the rest of the body is read and dropped, then the connection is closed, so the client
     * gets its answer. Before, the close came first, the client's next chunk met a reset, and the answer it had not
     * read yet was lost with it.
     */
    @Test
    void aClientStillSendingItsBodyGetsItsAnswerBeforeTheClose() throws Exception {
        String chunk = "x".repeat(8 * 1024);
        String piece = Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n";
        try (var socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout(10_000);
            var out = socket.getOutputStream();
            out.write((post("Transfer-Encoding: chunked\r\n", "not-a-token") + piece).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(500); // the 401 is sent meanwhile
            for (int i = 0; i < 64; i++) {
                out.write(piece.getBytes(StandardCharsets.US_ASCII));
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String answer = readToEnd(socket.getInputStream());
            assertTrue(answer.startsWith("HTTP/1.1 401 "), answer);
            assertTrue(answer.toLowerCase().contains("\r\nconnection: close\r\n"), answer);
        }
    }

    private String host() {
        return server.getHost() + ":" + server.getPort();
    }

    private String post(String framing) {
        return post(framing, alice);
    }

    private String post(String framing, String token) {
        return "POST /mcp HTTP/1.1\r\nHost: " + host() + "\r\nAuthorization: Bearer " + token + "\r\n"
                + "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                + "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: server/discover\r\n" + framing + "\r\n";
    }

    private static String readToEnd(InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
}
