package dev.quaestor.bench.audit;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.write.ChainWriterBaseline;
import dev.quaestor.evidence.cli.Main;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.flywaydb.core.Flyway;

/**
 * The audit log's costs, in one run:
 * <ol>
 *   <li>durable records per second into PostgreSQL at 1, 16 and 64 concurrent writers (each waits for its
 *       record to commit, as a request does), the Merkle log (the server's writer) against the format-1 hash
 *       chain written the same way ({@link ChainWriterBaseline}), in alternating rounds, and their ratio
 *       (target: at least 0.8);</li>
 *   <li>quaestor-verify's speed on an export of a synthetic log (target: at least 500,000 records/s);</li>
 *   <li>prove and check times for one record of that log.</li>
 * </ol>
 * Uses database quaestor_bench on the tests' PostgreSQL ({@link TestPostgres}). Run with src/bench/audit-bench.sh.
 */
public final class AuditThroughputBench {

    private static final String DB = "quaestor_bench";
    private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int synthetic = args.length > 1 ? Integer.parseInt(args[1]) : 1_500_000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 2;
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
                                .credential(new SimplePassword("")).initialSql("SET backend_flush_after = '256kB'"))));
        var config = new BenchConfig("bench-merkle");
        var merkle = new AuditLog(ds, config, new SimpleMeterRegistry());
        var chain = new ChainWriterBaseline(ds, config, "bench-chain");

        System.out.printf("durable records/s (each append returns once its batch has committed), %d s per measurement, "
                + "%d alternating rounds:%n", seconds, rounds);
        System.out.println("writers   Merkle log   hash chain   ratio");
        for (int writers : new int[] {1, 16, 64}) {
            long m = 0;
            long h = 0;
            for (int r = 0; r < rounds; r++) {
                m += run(e -> merkle.append(e), writers, seconds);
                h += run(chain::append, writers, seconds);
            }
            double ms = m / (double) (seconds * rounds);
            double hs = h / (double) (seconds * rounds);
            System.out.printf("%7d  %11.0f  %11.0f   %.2f%s%n", writers, ms, hs, ms / hs, ms / hs >= 0.8 ? "" : "  (below 0.8)");
        }
        merkle.close();
        chain.stop();
        ds.close();

        Path dir = Files.createTempDirectory("quaestor-audit-bench");
        Path export = dir.resolve("synthetic.jsonl");
        String vkey = SyntheticExport.write(export, synthetic, ExportKey.generate(), null);
        Path keyFile = dir.resolve("audit.vkey");
        Files.writeString(keyFile, vkey);
        System.out.printf("quaestor-verify verify on a synthetic export of %,d records (%,d MiB), in this JVM:%n", synthetic,
                Files.size(export) >> 20);
        for (int i = 1; i <= 3; i++) {
            String out = cli("verify", export.toString(), "--trust", keyFile.toString());
            System.out.println("  run " + i + ": " + out.lines().filter(l -> l.contains("VERIFIED")).reduce((a, b) -> b).orElse(out));
        }

        Path proof = dir.resolve("one.tlog-proof");
        String record = "bench/" + (synthetic / 2 + 1);
        long t0 = System.nanoTime();
        cli("prove", export.toString(), record, "--out", proof.toString());
        double prove = (System.nanoTime() - t0) / 1e6;
        cli("check", proof.toString(), "--trust", keyFile.toString()); // warm-up
        t0 = System.nanoTime();
        String checked = cli("check", proof.toString(), "--trust", keyFile.toString());
        double check = (System.nanoTime() - t0) / 1e6;
        System.out.printf("prove %s from the export: %.0f ms (reading and hashing the whole export); proof file %,d bytes%n",
                record, prove, Files.size(proof));
        System.out.printf("check that proof: %.1f ms in this JVM (start-up excluded); %s%n", check,
                checked.lines().filter(l -> l.startsWith("VERIFIED") || l.startsWith("NOT VERIFIED")).findFirst().orElse(checked));
        try (var files = Files.list(dir)) {
            for (Path p : files.toList()) {
                Files.delete(p);
            }
        }
        Files.delete(dir);
    }

    private static String cli(String... args) {
        var buf = new ByteArrayOutputStream();
        var out = new PrintStream(buf, true, StandardCharsets.UTF_8);
        int code = Main.run(args, out, out);
        String text = buf.toString(StandardCharsets.UTF_8);
        if (code != Main.VERIFIED) {
            throw new IllegalStateException("quaestor-verify " + String.join(" ", args) + " exited " + code + ":\n" + text);
        }
        return text;
    }

    @FunctionalInterface
    private interface Appender {
        void append(AuditEvent e) throws Exception;
    }

    private static long run(Appender writer, int writers, int seconds) throws InterruptedException {
        var stop = new AtomicBoolean();
        var count = new AtomicLong();
        var failures = new AtomicLong();
        var threads = new ArrayList<Thread>();
        for (int t = 0; t < writers; t++) {
            int id = t;
            var th = new Thread(() -> {
                var caller = new Caller("user-" + id, "bench-client", "acme", List.of("analyst"), "10.0.0." + id, "bench", "s" + id,
                        null, "bench/1", null);
                long i = 0;
                while (!stop.get()) {
                    var e = AuditEvent.of(AuditEvent.Kind.OUTCOME, "req-" + id + "-" + i++).caller(caller).protocol("2025-11-25")
                            .method("resources/read").action("read").uri("file:///docs/handbook/welcome.md").policyRevision("rev")
                            .outcome("ok").bytes(1024L).contentSha256(SHA).cacheScope("private").latencyMicros(812L).build();
                    try {
                        writer.append(e);
                        count.incrementAndGet();
                    } catch (Exception ex) {
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

}
