package dev.quaestor.bench.load;

import dev.quaestor.support.Repo;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The peer (src/bench-peer: quarkus-mcp-server on the same Quarkus, no authentication, no audit) in its own process
 * on a free loopback port, with the same JVM options as the server it is compared with.
 */
final class PeerProcess implements AutoCloseable {

    private static final Path JAR = Repo.ROOT.resolve(Path.of("src", "bench-peer", "target", "quarkus-app", "quarkus-run.jar"));

    private final int port;
    private final List<String> command = new ArrayList<>();
    private final Path log;
    private Process process;

    PeerProcess(Path java, List<String> jvmOptions, Path file) throws IOException {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: src/bench/run.sh builds it");
        }
        try (var s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-Dquarkus.http.port=" + port, "-Dquarkus.http.host=127.0.0.1", "-Dpeer.file=" + file,
                "-jar", JAR.toString()));
        log = Repo.ROOT.resolve(Path.of("src", "bench", "target", "bench-peer.log"));
    }

    void start() throws IOException {
        process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
    }

    boolean alive() {
        return process != null && process.isAlive();
    }

    String url() {
        return "http://127.0.0.1:" + port;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        if (alive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
