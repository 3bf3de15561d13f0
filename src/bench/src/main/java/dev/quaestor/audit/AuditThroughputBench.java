package dev.quaestor.audit;

import dev.quaestor.support.TestPostgres;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;

/**
 * Durable audited records per second into PostgreSQL through the real group-commit writer, at 1,
 * 16 and 64 concurrent writers (each waits for its record to commit, as a request does), then the
 * offline verifier's speed on an export of everything written. Uses database quaestor_bench on the tests'
 * PostgreSQL ({@link TestPostgres}: 127.0.0.1:5432, or a private cluster if none answers there; created and cleaned
 * here). Run with bench/audit-bench.sh.
 */
public final class AuditThroughputBench {

    private static final String DB = "quaestor_bench";

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int synthetic = args.length > 1 ? Integer.parseInt(args[1]) : 1_500_000;
        String url = TestPostgres.get().jdbcUrl(DB) + "?reWriteBatchedInserts=true";
        try (var c = TestPostgres.get().admin()) {
            c.createStatement().execute("DROP DATABASE IF EXISTS " + DB);
            c.createStatement().execute("CREATE DATABASE " + DB);
        }
        Flyway.configure().dataSource(url, "postgres", "")
                .locations("classpath:db/migration/common", "classpath:db/migration/postgresql")
                .placeholders(java.util.Map.of("appRole", "__none__")).load().migrate();

        AgroalDataSource ds = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(cp -> cp.maxSize(8).acquisitionTimeout(Duration.ofSeconds(3))
                        .connectionFactoryConfiguration(cf -> cf.jdbcUrl(url).principal(new NamePrincipal("postgres"))
                                .credential(new SimplePassword("")))));
        var config = new BenchConfig();
        var writer = new GroupCommitWriter(ds, config, SigningKey.load(config), FieldHasher.none(), "bench-chain",
                new SimpleMeterRegistry());
        writer.start();

        System.out.println("writers  records/s  (durable: each append returns after its batch commits; " + seconds + " s each)");
        for (int writers : new int[] {1, 16, 64}) {
            long n = run(writer, writers, seconds);
            System.out.printf("%7d  %9.0f%n", writers, n / (double) seconds);
        }
        writer.stop();

        Path export = Files.createTempFile("quaestor-audit-bench", ".jsonl");
        try (var out = Files.newOutputStream(export); var c = ds.getConnection()) {
            AuditReader.writeJsonl(c, null, null, out);
        }
        settle(export);
        System.out.println("offline verification of the export (" + Files.size(export) / (1024 * 1024) + " MiB):");
        verify(export, 3);
        Files.delete(export);

        // Verification speed on a large export: a synthetic chain of the same record shape.
        Path big = Files.createTempFile("quaestor-audit-bench-large", ".jsonl");
        writeSyntheticChain(big, synthetic);
        settle(big);
        System.out.println("offline verification of a synthetic " + synthetic + "-record export (" + Files.size(big) / (1024 * 1024)
                + " MiB), in this JVM:");
        verify(big, 3);
        // As compliance staff run it: source-launch mode compiles the file first, then verifies. Three
        // launches: the first reads an export written moments ago, which has measured slower here.
        Path source = Path.of("src/server/src/main/java/dev/quaestor/audit/ChainVerifier.java");
        for (int i = 1; i <= 3; i++) {
            long t0 = System.nanoTime();
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), source.toString(),
                    big.toString()).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            double wall = (System.nanoTime() - t0) / 1e9;
            String last = text.lines().filter(l -> l.startsWith("VERIFIED") || l.startsWith("FAILED")).findFirst().orElse(text);
            var m = java.util.regex.Pattern.compile("checked in ([0-9.]+) s").matcher(last);
            double checked = m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
            System.out.printf("  java ChainVerifier.java, launch %d: %s%s%n    (%.2f s in all: %.2f s start-up and compilation, then %.2f s verifying)%n",
                    i, last, code == 0 ? "" : "  (exit " + code + ")", wall, wall - checked, checked);
        }
        Files.delete(big);
        ds.close();
    }

    /**
     * Flushes a just-written file to disk first, so the verifier is measured reading an export that
     * exists, not competing with the kernel writing back a gigabyte of dirty pages.
     */
    private static void settle(Path file) throws java.io.IOException {
        try (var ch = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
    }

    private static void verify(Path file, int runs) throws Exception {
        for (int i = 0; i < runs; i++) {
            var buf = new ByteArrayOutputStream();
            int code = ChainVerifier.run(new String[] {file.toString()}, new PrintStream(buf, true, StandardCharsets.UTF_8));
            String text = buf.toString(StandardCharsets.UTF_8);
            System.out.print("  run " + (i + 1) + ": " + text.lines().filter(l -> l.startsWith("VERIFIED") || l.startsWith("FAILED"))
                    .findFirst().orElse(text) + (code == 0 ? "" : "  (exit " + code + ")") + "\n");
        }
    }

    /** A valid chain of n records like the ones the writers above produce, as an export file (no checkpoints). */
    private static void writeSyntheticChain(Path file, int n) throws Exception {
        var keys = new ArrayList<String>();
        keys.add("type");
        keys.addAll(ChainVerifier.FIELDS);
        keys.add("hash");
        var sha = ChainVerifier.newDigest();
        String prev = ChainVerifier.GENESIS;
        var caller = new Caller("user-7", "bench-client", "acme", List.of("analyst"), "10.0.0.7", "bench", "s7", null, null, null);
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        try (var w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 1; i <= n; i++) {
                var e = new AuditEvent(t0.plusNanos(i * 1000L), "req-7-" + i, AuditEvent.Kind.OUTCOME, caller, null, "resources/read", "read",
                        "file:///docs/handbook/welcome.md", null, List.of(), "rev", "ok", null, 1024L, null,
                        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", null, 812L, null, null, null, null);
                var f = AuditRecords.fields(e, "synthetic-chain", i, prev, e.time());
                prev = ChainVerifier.hash(sha, f);
                f.put("hash", prev);
                f.put("type", "record");
                w.write(AuditReader.json(f, keys));
            }
        }
    }

    private static long run(GroupCommitWriter writer, int writers, int seconds) throws InterruptedException {
        var stop = new AtomicBoolean();
        var count = new AtomicLong();
        var failures = new AtomicLong();
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < writers; t++) {
            int id = t;
            var th = new Thread(() -> {
                var caller = new Caller("user-" + id, "bench-client", "acme", List.of("analyst"), "10.0.0." + id, "bench", "s" + id, null, null, null);
                long i = 0;
                while (!stop.get()) {
                    var e = new AuditEvent(Instant.now(), "req-" + id + "-" + i++, AuditEvent.Kind.OUTCOME, caller, null, "resources/read",
                            "read", "file:///docs/handbook/welcome.md", null, List.of(), "rev", "ok", null, 1024L, null,
                            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", null, 812L, null, null, null, null);
                    try {
                        writer.append(e);
                        count.incrementAndGet();
                    } catch (AuditUnavailableException ex) {
                        failures.incrementAndGet();
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread th : threads) {
            th.join();
        }
        if (failures.get() > 0) {
            System.out.println("  (" + failures.get() + " appends failed)");
        }
        return count.get();
    }

    private static final class BenchConfig implements AuditConfig {
        public Optional<String> chainId() {
            return Optional.of("bench-chain");
        }

        public int queueCapacity() {
            return 10_000;
        }

        public int maxBatch() {
            return 500;
        }

        public Duration commitTimeout() {
            return Duration.ofSeconds(5);
        }

        public int checkpointEvery() {
            return 1000;
        }

        public Duration checkpointInterval() {
            return Duration.ofSeconds(10);
        }

        public Optional<String> signingKey() {
            return Optional.empty();
        }

        public Optional<String> signingKeyFile() {
            return Optional.empty();
        }

        public boolean generateKey() {
            return true;
        }

        public Optional<List<String>> hashedFields() {
            return Optional.empty();
        }

        public Optional<String> hmacKey() {
            return Optional.empty();
        }

        public String auditorRole() {
            return "quaestor-auditor";
        }
    }
}
