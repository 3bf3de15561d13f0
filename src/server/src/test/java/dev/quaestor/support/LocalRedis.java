package dev.quaestor.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A private redis-server on a free loopback port, owned by one test, so the test can stop and
 * start it without disturbing the machine's shared Redis. Keeps nothing on disk.
 */
public final class LocalRedis implements AutoCloseable {

    private final int port;
    private final Path log;
    private Process process;

    public LocalRedis() throws IOException {
        try (var s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
        this.log = Files.createTempFile("quaestor-redis", ".log");
        start();
    }

    public int port() {
        return port;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    public synchronized void start() throws IOException {
        process = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean listening = Wait.holdsWithin(Duration.ofSeconds(10), Duration.ofMillis(50), () -> {
            try (var s = new Socket("127.0.0.1", port)) {
                return true;
            } catch (IOException notYet) {
                return false;
            }
        });
        if (listening) {
            return;
        }
        throw new IOException("redis-server did not start on port " + port + " (see " + log + ")");
    }

    public synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            process = null;
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
