package dev.quaestor.audit.anchor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.support.TlsFiles;
import dev.quaestor.support.TsaServer;
import dev.quaestor.testtsa.OpensslTsa;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TSA client against OpenSSL's TSA behind https: with the right client certificate and credentials it gets a
 * token that the verifier's check accepts; wrong credentials, no client certificate, basic credentials over plain
 * http and a TSA that does not answer each fail with their own reason; a TSA that sends its headers and then trickles
 * its body is abandoned at the deadline of the whole exchange; an answer past the size cap is refused.
 */
class TsaClientTest {

    @TempDir
    static Path dir;
    static TlsFiles tls;
    static TsaServer tsa;

    @BeforeAll
    static void start() throws Exception {
        tls = TlsFiles.create(dir.resolve("tls"));
        tsa = TsaServer.start(OpensslTsa.create(dir.resolve("tsa"), "Client Test TSA"), tls);
    }

    @AfterAll
    static void stop() {
        tsa.close();
    }

    static TsaClient client(String password, SSLContext ssl, Duration timeout) {
        return new TsaClient(new TsaClient.Target(tsa.url(), Optional.of(TsaServer.USER), Optional.of(password), ssl, timeout,
                Optional.empty()));
    }

    @Test
    void aTokenFromTheTsaPassesTheVerifiersCheck() throws Exception {
        String text = "quaestor.audit/replica-a\n7\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\ntime " + Instant.now().minusSeconds(1) + "\n";
        byte[] token = client(TsaServer.PASSWORD, tls.clientContext(true), Duration.ofSeconds(10)).stamp(Anchor.imprint(text));
        TimeStampCheck check;
        try (InputStream in = Files.newInputStream(tsa.root())) {
            check = new TimeStampCheck(TimeStampCheck.certificates(in), TimeStampCheck.MAX_DELAY);
        }
        var stamp = check.check(token, text, Instant.now().minusSeconds(1));
        assertEquals("CN=Client Test TSA", stamp.tsa());
    }

    @Test
    void wrongCredentialsAreRefused() throws Exception {
        var f = assertThrows(TsaClient.Failure.class, () -> client("wrong", tls.clientContext(true), Duration.ofSeconds(10))
                .stamp(new byte[32]));
        assertEquals("refused", f.reason);
        assertTrue(f.getMessage().contains("HTTP 401"), f.getMessage());
    }

    @Test
    void withoutItsClientCertificateTheTsaIsNotReached() throws Exception {
        int granted = tsa.granted();
        var f = assertThrows(TsaClient.Failure.class, () -> client(TsaServer.PASSWORD, tls.clientContext(false), Duration.ofSeconds(10))
                .stamp(new byte[32]));
        assertTrue(f.reason.equals("tls") || f.reason.equals("unreachable"), f.reason + ": " + f.getMessage());
        assertEquals(granted, tsa.granted());
    }

    @Test
    void credentialsAreNeverSentOverPlainHttp() {
        var e = assertThrows(IllegalStateException.class, () -> new TsaClient(new TsaClient.Target(URI.create("http://tsa.example.org/"),
                Optional.of("u"), Optional.of("p"), null, Duration.ofSeconds(1), Optional.empty())));
        assertTrue(e.getMessage().contains("credentials are sent over https only"), e.getMessage());
    }

    @Test
    void aTsaThatDoesNotAnswerTimesOut() throws Exception {
        tsa.stall();
        try {
            long started = System.nanoTime();
            var f = assertThrows(TsaClient.Failure.class, () -> client(TsaServer.PASSWORD, tls.clientContext(true), Duration.ofMillis(800))
                    .stamp(new byte[32]));
            assertEquals("timeout", f.reason, f.getMessage());
            assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos());
        } finally {
            tsa.resume();
        }
    }
    @Test
    void aTsaThatTricklesItsBodyIsAbandonedAtTheDeadlineOfTheWholeExchange() throws Exception {
        try (var server = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread trickler = new Thread(() -> {
                try (var socket = server.accept()) {
                    var in = socket.getInputStream();
                    byte[] buffer = new byte[8192];
                    // The request: headers and a small body; reading what arrives first is enough to answer. The body
                    // then takes 6 s, a byte at a time: a client without a deadline on it waits for all of it.
                    in.read(buffer);
                    var out = socket.getOutputStream();
                    out.write("HTTP/1.1 200 OK\r\nContent-Type: application/timestamp-reply\r\nContent-Length: 60\r\n\r\n"
                            .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.flush();
                    for (int i = 0; i < 60; i++) {
                        out.write(0);
                        out.flush();
                        Thread.sleep(100);
                    }
                } catch (Exception clientLeft) {
                    // the client abandoned the exchange
                }
            }, "trickling-tsa");
            trickler.setDaemon(true);
            trickler.start();
            var client = new TsaClient(new TsaClient.Target(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"),
                    Optional.empty(), Optional.empty(), null, Duration.ofMillis(800), Optional.empty()));
            long started = System.nanoTime();
            var f = assertThrows(TsaClient.Failure.class, () -> client.stamp(new byte[32]));
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            assertEquals("timeout", f.reason, f.getMessage());
            assertTrue(tookMillis < 3_000, "abandoned at the deadline, not when the body ends: " + tookMillis + " ms");
            trickler.interrupt();
        }
    }

    /**
     * A 1 MiB answer, sent without a length (chunked) and with one: refused as too large, no token, whether it would
     * have parsed or not.
     */
    @Test
    void anAnswerPastTheCapIsRefusedAsTooLarge() throws Exception {
        byte[] mebibyte = new byte[1 << 20];
        for (long declared : new long[] {0, mebibyte.length}) {
            var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", exchange -> {
                try {
                    exchange.getRequestBody().readAllBytes();
                    exchange.getResponseHeaders().set("Content-Type", "application/timestamp-reply");
                    exchange.sendResponseHeaders(200, declared);
                    exchange.getResponseBody().write(mebibyte);
                } catch (IOException clientLeft) {
                    // the client stopped reading
                } finally {
                    exchange.close();
                }
            });
            server.start();
            try {
                var client = new TsaClient(new TsaClient.Target(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"),
                        Optional.empty(), Optional.empty(), null, Duration.ofSeconds(10), Optional.empty()));
                var f = assertThrows(TsaClient.Failure.class, () -> client.stamp(new byte[32]), "declared length " + declared);
                assertEquals("too-large", f.reason, f.getMessage());
                assertTrue(f.getMessage().contains("larger than 64 KiB"), f.getMessage());
            } finally {
                server.stop(0);
            }
        }
    }
}
