package dev.quaestor.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * async-profiler (tools.profiler:async-profiler from Maven Central, which carries the native
 * library) attached to the running server with {@code jcmd JVMTI.agent_load}, so only the chosen
 * phase is profiled.
 */
final class Profiler {

    private final long pid;
    private final Path out;

    Profiler(long pid, Path out) {
        this.pid = pid;
        this.out = out;
    }

    void start(String event) throws Exception {
        if (event != null) {
            agent("start,event=" + event + (event.equals("alloc") || event.equals("lock") ? "" : ",interval=1ms"));
        }
    }

    void stop(String event) throws Exception {
        if (event != null) {
            Path collapsed = out.resolve("profile-" + event + ".collapsed");
            Path flat = out.resolve("profile-" + event + ".txt");
            agent("dump,collapsed,file=" + collapsed);
            agent("stop,flat=40,traces=15,file=" + flat);
            System.out.printf("profile (%s) of the audited saturation phase: %s and %s%n", event, flat, collapsed);
        }
    }

    private void agent(String command) throws Exception {
        var p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(), Long.toString(pid),
                "JVMTI.agent_load", library().toString(), command).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0 || said.contains("rror")) {
            throw new IllegalStateException("async-profiler " + command + ": " + said);
        }
    }

    private Path library() throws IOException {
        Path lib = out.resolve("libasyncProfiler.so");
        if (!Files.exists(lib)) {
            try (InputStream in = Profiler.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
                if (in == null) {
                    throw new IllegalStateException("async-profiler's linux-x64 library is not on the class path");
                }
                Files.copy(in, lib, StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return lib;
    }
}
