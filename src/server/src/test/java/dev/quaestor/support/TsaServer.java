package dev.quaestor.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.quaestor.testtsa.OpensslTsa;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A time-stamping authority on the network that is not ours: OpenSSL's {@code openssl ts -reply} ({@link OpensslTsa})
 * behind a small HTTP server, RFC 3161 section 3.4 (POST {@code application/timestamp-query}, answer
 * {@code application/timestamp-reply}), over https with a client certificate required and HTTP basic credentials,
 * as a TSA an organisation buys would ask. {@link #stall} makes it stop answering (connections are accepted and
 * held, requests get no answer) until {@link #resume}; {@link #trickle} makes it send an answer's headers at once and
 * its body a byte every half second, until {@link #resume}.
 */
public final class TsaServer implements AutoCloseable {

    public static final String USER = "quaestor";
    public static final String PASSWORD = "tsa-secret";

    private final OpensslTsa tsa;
    private final HttpServer server;
    private final Object gate = new Object();
    private volatile boolean stalled;
    private volatile boolean trickling;
    private final AtomicInteger granted = new AtomicInteger();
    private final AtomicInteger refused = new AtomicInteger();

    private TsaServer(OpensslTsa tsa, HttpServer server) {
        this.tsa = tsa;
        this.server = server;
    }

    /** Starts on an ephemeral port of 127.0.0.1, with TLS from {@code tls} (client certificates required). */
    public static TsaServer start(OpensslTsa tsa, TlsFiles tls) throws Exception {
        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        SSLContext ssl = serverContext(tls);
        https.setHttpsConfigurator(new HttpsConfigurator(ssl) {
            @Override
            public void configure(HttpsParameters params) {
                var p = ssl.getDefaultSSLParameters();
                p.setNeedClientAuth(true);
                params.setSSLParameters(p);
            }
        });
        var s = new TsaServer(tsa, https);
        https.createContext("/tsa", s::handle);
        https.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "test-tsa");
            t.setDaemon(true);
            return t;
        }));
        https.start();
        return s;
    }

    private static SSLContext serverContext(TlsFiles tls) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(tls.serverKeyStore())) {
            keys.load(in, TlsFiles.PASSWORD.toCharArray());
        }
        var kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, TlsFiles.PASSWORD.toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), tls.trustingTheCa(), null); // client certificates issued by the test CA
        return ssl;
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            synchronized (gate) {
                while (stalled) {
                    try {
                        gate.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            String expected = "Basic " + Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
            if (!"POST".equals(x.getRequestMethod()) || !expected.equals(x.getRequestHeaders().getFirst("Authorization"))) {
                refused.incrementAndGet();
                x.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"tsa\"");
                x.sendResponseHeaders(401, -1);
                return;
            }
            byte[] reply;
            try {
                reply = tsa.reply(x.getRequestBody().readAllBytes());
            } catch (IOException | InterruptedException e) {
                x.sendResponseHeaders(500, -1);
                return;
            }
            granted.incrementAndGet();
            x.getResponseHeaders().add("Content-Type", "application/timestamp-reply");
            x.sendResponseHeaders(200, reply.length);
            int sent = 0;
            while (trickling && sent < reply.length - 1) {
                x.getResponseBody().write(reply[sent++]);
                x.getResponseBody().flush();
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            x.getResponseBody().write(reply, sent, reply.length - sent);
        }
    }

    public URI url() {
        return URI.create("https://localhost:" + server.getAddress().getPort() + "/tsa");
    }

    public Path root() {
        return tsa.root();
    }

    /** From now on, requests get no answer (the connection stays open) until {@link #resume}. */
    public void stall() {
        stalled = true;
    }

    /** From now on, answers send their headers at once and then a byte of their body every half second. */
    public void trickle() {
        trickling = true;
    }

    public void resume() {
        synchronized (gate) {
            stalled = false;
            trickling = false;
            gate.notifyAll();
        }
    }

    /** Tokens handed out so far. */
    public int granted() {
        return granted.get();
    }

    /** Requests refused for their credentials so far. */
    public int refused() {
        return refused.get();
    }

    @Override
    public void close() {
        resume();
        server.stop(0);
    }
}
