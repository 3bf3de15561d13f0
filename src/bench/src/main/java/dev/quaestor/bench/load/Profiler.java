package dev.quaestor.bench.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * async-profiler (tools.profiler:async-profiler from Maven Central, which carries the native
 * library) loaded into the server at start with {@code -agentpath}: it samples the whole run and
 * writes collapsed stacks when the server exits. (Attaching later with jcmd proved unreliable on a
 * busy machine.) Read the output with {@code bench/profile-summary.sh FILE}.
 */
public final class Profiler {

    private Profiler() {
    }

    /**
     * The JVM option that profiles {@code event} (cpu, itimer, wall, alloc, lock) into {@link #output}'s file for
     * {@code what} (a start, a round: each profiled run writes its own file).
     */
    public static String agentOption(String what, String event, Path work) throws IOException {
        return "-agentpath:" + library(work) + "=start,event=" + event + ",collapsed,file=" + output(what, event, work);
    }

    /**
     * Runs an async-profiler command ({@code start,...} or {@code stop,...}) in a running JVM by loading
     * the agent into it with {@code jcmd PID JVMTI.agent_load}, so that only part of a run is profiled.
     */
    public static void attach(long pid, Path work, String command) throws IOException, InterruptedException {
        Path lib = library(work);
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        // Quoted: jcmd would otherwise read the '=' in the options as its own name=value arguments.
        var p = new ProcessBuilder(jcmd, Long.toString(pid), "JVMTI.agent_load", lib.toString(), '"' + command + '"')
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        if (p.waitFor() != 0 || out.contains("ERROR") || !out.contains("return code: 0")) {
            throw new IllegalStateException("jcmd JVMTI.agent_load " + command + ": " + out);
        }
    }

    /**
     * async-profiler's native library, copied out of its jar into {@code work} unless the same file is
     * already there (it may be loaded into a running JVM, which an overwrite could crash).
     */
    private static Path library(Path work) throws IOException {
        Path lib = work.resolve("libasyncProfiler.so");
        try (InputStream in = Profiler.class.getResourceAsStream("/linux-x64/libasyncProfiler.so")) {
            if (in == null) {
                throw new IllegalStateException("async-profiler's linux-x64 library is not on the class path");
            }
            byte[] bytes = in.readAllBytes();
            if (!Files.exists(lib) || Files.size(lib) != bytes.length) {
                Files.write(lib, bytes);
            }
        }
        return lib;
    }

    public static Path output(String what, String event, Path work) {
        // An event may carry options (wall,interval=2ms): a comma in the file name would end the agent's file option.
        return work.resolve("profile-" + what + "-" + event.replaceAll("[,=]", "-") + ".collapsed");
    }
}
