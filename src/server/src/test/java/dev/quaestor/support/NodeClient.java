package dev.quaestor.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The MCP TypeScript SDK v2 client, pinned to 2026-07-28, in a Node process of its own
 * ({@code src/test/node/ts-client-2026.mjs}), driven by one JSON command per line.
 *
 * <p>Node (20 or later) is found as {@code QUAESTOR_NODE}, else the Node 22 that {@code scripts/node22.sh} installs
 * under {@code ~/.cache/quaestor-tools/node22}, else {@code node} on the PATH; the script's one dependency is
 * installed with {@code npm ci} from its lock file on first use. Without Node the test is skipped, unless
 * {@code QUAESTOR_REQUIRE_NODE} is set (CI sets it), when it fails.
 */
public final class NodeClient implements AutoCloseable {

    public static final Path DIR = Path.of("src", "test", "node");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final BufferedWriter commands;
    private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();
    private final StringBuffer errors = new StringBuffer();
    private int nextId;

    private NodeClient(Process process) {
        this.process = process;
        this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        drain(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), true);
        drain(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), false);
    }

    private void drain(BufferedReader reader, boolean stdout) {
        Thread t = new Thread(() -> {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (stdout) {
                        answers.add(line);
                    } else if (errors.length() < 64 * 1024) {
                        errors.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }, stdout ? "node-client-out" : "node-client-err");
        t.setDaemon(true);
        t.start();
    }

    /** Starts the client against {@code mcpUrl} with this bearer token. */
    public static NodeClient start(String mcpUrl, String token) throws IOException, InterruptedException {
        Path node = node().orElse(null);
        if (node == null) {
            String why = "Node 20 or later was not found (QUAESTOR_NODE, ~/.cache/quaestor-tools/node22, PATH)";
            if (System.getenv("QUAESTOR_REQUIRE_NODE") != null) {
                throw new IllegalStateException(why);
            }
            Assumptions.abort(why + "; the TypeScript client is not run (set QUAESTOR_REQUIRE_NODE to fail instead)");
        }
        installDependencies(node);
        var pb = new ProcessBuilder(node.toString(), "ts-client-2026.mjs").directory(DIR.toFile());
        pb.environment().put("MCP_URL", mcpUrl);
        pb.environment().put("TOKEN", token);
        return new NodeClient(pb.start());
    }

    /** Sends one command and waits for its answer: {@code {ok, result}} or {@code {ok: false, error}}. */
    public JsonNode call(String cmd, Map<String, Object> args, Duration timeout) throws IOException, InterruptedException {
        int id = ++nextId;
        var command = new java.util.LinkedHashMap<String, Object>();
        command.put("id", id);
        command.put("cmd", cmd);
        command.put("args", args);
        commands.write(JSON.writeValueAsString(command));
        commands.newLine();
        commands.flush();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            String line = answers.poll(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())), TimeUnit.MILLISECONDS);
            if (line == null) {
                break;
            }
            JsonNode answer;
            try {
                answer = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            if (answer.path("id").asInt(-1) == id) {
                return answer;
            }
        }
        throw new IllegalStateException("no answer to " + cmd + " within " + timeout + "; the client's stderr:\n" + errors);
    }

    /** As {@link #call}, expecting success: the result. */
    public JsonNode ok(String cmd, Map<String, Object> args) throws IOException, InterruptedException {
        JsonNode answer = call(cmd, args, Duration.ofSeconds(30));
        if (!answer.path("ok").asBoolean()) {
            throw new AssertionError(cmd + " failed: " + answer.path("error") + "\nstderr:\n" + errors);
        }
        return answer.path("result");
    }

    /** As {@link #call}, expecting a failure: the error. */
    public JsonNode fails(String cmd, Map<String, Object> args) throws IOException, InterruptedException {
        JsonNode answer = call(cmd, args, Duration.ofSeconds(30));
        if (answer.path("ok").asBoolean()) {
            throw new AssertionError(cmd + " succeeded, but should have failed: " + answer.path("result"));
        }
        return answer.path("error");
    }

    public String stderr() {
        return errors.toString();
    }

    @Override
    public void close() throws Exception {
        try {
            call("close", Map.of(), Duration.ofSeconds(5));
        } catch (RuntimeException | IOException e) {
            // it may be gone already
        }
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroy();
        }
    }

    /** A Node of version 20 or later, if one is installed. */
    static Optional<Path> node() {
        var candidates = new ArrayList<Path>();
        String configured = System.getenv("QUAESTOR_NODE");
        if (configured != null && !configured.isBlank()) {
            candidates.add(Path.of(configured));
        }
        String tools = System.getenv().getOrDefault("QUAESTOR_TOOLS", System.getProperty("user.home") + "/.cache/quaestor-tools");
        candidates.add(Path.of(tools, "node22", "node_modules", "node", "bin", "node"));
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isBlank()) {
                candidates.add(Path.of(dir, "node"));
            }
        }
        for (Path p : candidates) {
            if (Files.isExecutable(p) && major(p) >= 20) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static int major(Path node) {
        try {
            Process p = new ProcessBuilder(node.toString(), "-p", "process.versions.node.split('.')[0]").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? Integer.parseInt(out) : 0;
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return 0;
        }
    }

    /** {@code npm ci} in the script's directory, once: the pinned client from the lock file. */
    private static synchronized void installDependencies(Path node) throws IOException, InterruptedException {
        if (Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/client"))) {
            return;
        }
        Path npm = node.resolveSibling("npm");
        List<String> command = Files.isExecutable(npm) ? List.of(npm.toString(), "ci", "--no-audit", "--no-fund")
                : List.of("npm", "ci", "--no-audit", "--no-fund");
        var pb = new ProcessBuilder(command).directory(DIR.toFile()).redirectErrorStream(true);
        // npm runs under the same Node as the client.
        pb.environment().put("PATH", node.getParent() + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() != 0) {
            throw new IllegalStateException("npm ci in " + DIR + " failed:\n" + out);
        }
    }
}
