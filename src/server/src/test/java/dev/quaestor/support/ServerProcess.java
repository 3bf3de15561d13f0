package dev.quaestor.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One production-mode server (the packaged {@code target/quarkus-app/quarkus-run.jar}) in its own
 * process on a free loopback port, as a replica would run in a pod. Its log goes to target/.
 */
public final class ServerProcess implements AutoCloseable {

    private static final Path JAR = Repo.SERVER.resolve(Path.of("target", "quarkus-app", "quarkus-run.jar"));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final int port;
    private final Map<String, String> env;
    private final List<String> jvmOptions;
    private final Path java;
    private Process process;

    public ServerProcess(String name, Map<String, String> env) throws IOException {
        this(name, env, List.of("-Xmx256m"));
    }

    /** With these JVM options instead of the default {@code -Xmx256m} (benchmarks: heap, -D keys, agents). */
    public ServerProcess(String name, Map<String, String> env, List<String> jvmOptions) throws IOException {
        this(name, env, jvmOptions, Path.of(System.getProperty("java.home"), "bin", "java"));
    }

    /** On another JVM than the one running the tests (benchmarks: a newer JDK's start-up features). */
    public ServerProcess(String name, Map<String, String> env, List<String> jvmOptions, Path java) throws IOException {
        this.java = java;
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: run ./mvnw package (verify does) first");
        }
        this.name = name;
        try (var s = new ServerSocket(0)) {
            this.port = s.getLocalPort();
        }
        this.env = new HashMap<>(env);
        this.jvmOptions = List.copyOf(jvmOptions);
        this.env.put("QUARKUS_HTTP_PORT", Integer.toString(port));
        this.env.put("QUAESTOR_AUDIT_CHAIN_ID", name);
        // The packaged defaults name content/ relative to the repository root; the tests run in server/.
        this.env.putIfAbsent("QUAESTOR_MOUNTS_DOCS_ROOT", Repo.CONTENT.resolve("docs").toString());
        this.env.putIfAbsent("QUAESTOR_MOUNTS_FIXTURES_FILE", Repo.CONTENT.resolve("fixtures.yaml").toString());
        // No load balancer has to notice the readiness change here, so the pre-shutdown delay can be short.
        this.env.putIfAbsent("QUAESTOR_SHUTDOWN_DELAY", "1S");
    }

    /** Sets one more environment variable before {@link #start} (one that needs {@link #url}, say). */
    public ServerProcess with(String key, String value) {
        env.put(key, value);
        return this;
    }

    /** Where this process's console output goes (JSON lines in the prod profile). */
    public Path log() {
        return Repo.SERVER.resolve(Path.of("target", name + ".log"));
    }

    /** Runs a process that is expected to exit by itself (a migration run), returning its exit code. */
    public int runToExit(Duration within) throws IOException, InterruptedException {
        start();
        if (!process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException(name + " did not exit within " + within + " (see " + log() + ")");
        }
        return process.exitValue();
    }

    public String name() {
        return name;
    }

    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** The operating system's process id (for /proc statistics and profilers); -1 before start. */
    public synchronized long pid() {
        return process == null ? -1 : process.pid();
    }

    public synchronized void start() throws IOException {
        Path log = log();
        var command = new ArrayList<String>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", JAR.toString()));
        var pb = new ProcessBuilder(command)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().putAll(env);
        process = pb.start();
    }

    /** Waits until /q/health/ready says UP. */
    public void awaitReady(Duration within) throws Exception {
        boolean ready = Wait.holdsWithin(within, Duration.ofMillis(100), () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + " (see src/server/target/" + name + ".log)");
            }
            try {
                var r = HTTP.send(HttpRequest.newBuilder(URI.create(url() + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding());
                return r.statusCode() == 200;
            } catch (IOException notYet) {
                return false; // not listening yet
            }
        });
        if (ready) {
            return;
        }
        throw new IllegalStateException(name + " was not ready within " + within + " (see src/server/target/" + name + ".log)");
    }

    /** SIGTERM, as Kubernetes sends it: the server drains and flushes its audit queue before exiting. */
    public synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** SIGKILL: the process dies at once, running no shutdown hook (a node lost, the OOM killer). */
    public synchronized void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** The exit code of a stopped process. */
    public synchronized int exitValue() {
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
