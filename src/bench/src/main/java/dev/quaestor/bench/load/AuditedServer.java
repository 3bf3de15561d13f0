package dev.quaestor.bench.load;

import dev.quaestor.bench.ProdServerSetup;
import dev.quaestor.support.Repo;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The production-mode server the load benchmarks drive, prepared once: a fresh database, a policy that lets the
 * bench readers read one mount under a per-user limit, the 1 KiB file on that mount, and the JVM options.
 *
 * @param env     the server's environment ({@link ProdServerSetup})
 * @param jvm     heap, the mount, the comparison endpoint, and the Serial collector unless an option names another
 * @param content the directory the mount serves, holding {@link #FILE}
 */
public record AuditedServer(Map<String, String> env, List<String> jvm, Path content) {

    public static final String FILE = "one-kib.txt";
    public static final String URI = "file:///bench/" + FILE;

    public static AuditedServer prepare(String name, String database, long limitPerUser, String heap, List<String> serverOptions)
            throws Exception {
        Path work = Files.createDirectories(Repo.ROOT.resolve(Path.of("src", "bench", "target", name)));
        Path content = Files.createDirectories(work.resolve("content"));
        Files.write(content.resolve(FILE), oneKib());
        var env = ProdServerSetup.environment("bench-" + name, database, """
                apiVersion: quaestor/v1
                kind: Policy
                metadata:
                  name: bench
                  description: Load harness readers read the bench mount, under a per-user limit
                rules:
                  - id: bench-readers-read
                    effect: allow
                    actions: [read]
                    resources: ["file:///bench/**"]
                    subjects: {roles: [bench-reader]}
                limits:
                  - id: bench-per-user
                    key: subject
                    capacity: %d
                    refill: {tokens: %d, period: 1s}
                    resources: ["file:///bench/**"]
                """.formatted(limitPerUser, limitPerUser), false);
        var jvm = new ArrayList<String>(List.of("-Xmx" + heap,
                "-Dquaestor.mounts.bench.provider=filesystem",
                "-Dquaestor.mounts.bench.uri=file:///bench/",
                "-Dquaestor.mounts.bench.root=" + content,
                "-Dquaestor.baseline.enabled=true",
                "-Dquaestor.baseline.root=" + content));
        // The collector a pod's JVM picks by itself: with the deployment's 1 GiB memory limit it is not a
        // "server-class machine" (under 1792 MB), so ergonomics choose Serial, not G1 as on this 24 GB host.
        if (serverOptions.stream().noneMatch(opt -> opt.matches("-XX:\\+Use\\w+GC"))) {
            jvm.add("-XX:+UseSerialGC");
        }
        jvm.addAll(serverOptions);
        return new AuditedServer(env, List.copyOf(jvm), content);
    }

    /** 1,024 bytes of ASCII text in lines. */
    static byte[] oneKib() {
        var b = new StringBuilder();
        while (b.length() < 1024) {
            b.append("Quaestor load-test line ").append(b.length()).append(": the quick brown fox jumps over the lazy dog.\n");
        }
        return b.substring(0, 1023).concat("\n").getBytes(StandardCharsets.US_ASCII);
    }
}
