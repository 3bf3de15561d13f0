package dev.quaestor.bench.audit;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.security.NamePrincipal;
import io.agroal.api.security.SimplePassword;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real signed audit log in a server's database, written quickly: the server's own writer
 * ({@link AuditLog}: Merkle leaves, stored nodes, a checkpoint every 1,000 records signed with the
 * server's key) appending records like the ones reads write, from many threads at once, into a chain of its
 * own beside the server's. The server then verifies and exports it as any other of its logs.
 */
public final class SignedHistory {

    private static final String SHA = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    private SignedHistory() {
    }

    /**
     * Appends {@code records} records to chain {@code chain} of the database at {@code jdbcUrl} (already migrated),
     * signed with the key in {@code keyFile}. Returns the seconds it took.
     */
    public static double write(String jdbcUrl, String keyFile, String chain, int records) throws Exception {
        AgroalDataSource ds = AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(cp -> cp.maxSize(4).acquisitionTimeout(Duration.ofSeconds(10))
                        .connectionFactoryConfiguration(cf -> cf.jdbcUrl(jdbcUrl + "?reWriteBatchedInserts=true")
                                .principal(new NamePrincipal("postgres")).credential(new SimplePassword("")))));
        var config = new BenchConfig(chain, keyFile);
        long start = System.nanoTime();
        var log = new AuditLog(ds, config, new SimpleMeterRegistry());
        try {
            var next = new AtomicLong();
            var failures = new AtomicLong();
            var threads = new ArrayList<Thread>();
            for (int t = 0; t < 64; t++) {
                int id = t;
                var th = new Thread(() -> {
                    var caller = new Caller("history-" + id, "bench-client", "acme", List.of("analyst"), "10.0.0." + id, "bench",
                            "s" + id, null, "bench/1", null);
                    for (long i; (i = next.incrementAndGet()) <= records;) {
                        var e = AuditEvent.of(AuditEvent.Kind.OUTCOME, "history-" + i).caller(caller).protocol("2025-11-25")
                                .method("resources/read").action("read").uri("file:///docs/handbook/welcome.md").policyRevision("rev")
                                .outcome("ok").bytes(1024L).contentSha256(SHA).cacheScope("private").latencyMicros(812L).build();
                        try {
                            log.append(e);
                        } catch (RuntimeException ex) {
                            failures.incrementAndGet();
                        }
                    }
                }, "history-" + t);
                th.start();
                threads.add(th);
            }
            for (Thread th : threads) {
                th.join();
            }
            if (failures.get() > 0) {
                throw new IllegalStateException(failures.get() + " of " + records + " history records failed to commit");
            }
        } finally {
            log.close();
            ds.close();
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
