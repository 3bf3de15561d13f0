package dev.quaestor.bench.isolation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the server and its database look like during a phase, from outside: heap used and live threads from
 * {@code /q/metrics} (Micrometer's {@code jvm_memory_used_bytes{area="heap"}}, summed over the pools, and
 * {@code jvm_threads_live_threads}), and the server's database connections that are not idle (active or inside a
 * transaction, from {@code pg_stat_activity}), sampled every second (the peaks are kept); audit rows, open
 * sessions and the database's size, counted at the start and the end.
 */
final class ServerGauges implements AutoCloseable {

    /** The counts taken at one moment. */
    record Counts(long auditRows, long sessions, long databaseBytes) {
    }

    /** The peaks of one phase; -1 where no sample answered. */
    record Peaks(long heapBytes, long threads, long busyConnections, int metricFailures) {
    }

    private final String metricsUrl;
    private final String token;
    private final Connection db;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        var t = new Thread(r, "gauges");
        t.setDaemon(true);
        return t;
    });
    private long heap = -1;
    private long threads = -1;
    private long busy = -1;
    private int failures;

    ServerGauges(String serverUrl, String token, String jdbcUrl) throws SQLException {
        this.metricsUrl = serverUrl + "/q/metrics";
        this.token = token;
        this.db = DriverManager.getConnection(jdbcUrl, "postgres", "");
        sampler.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    private synchronized void sample() {
        try {
            busy = Math.max(busy, busyConnections());
        } catch (SQLException e) {
            // counted below as a missing sample of the metrics only; the database is the server's, not ours
        }
        try {
            var res = http.send(HttpRequest.newBuilder(URI.create(metricsUrl)).timeout(Duration.ofSeconds(2))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofLines());
            if (res.statusCode() != 200) {
                failures++;
                return;
            }
            long[] h = {0, -1};
            res.body().filter(l -> !l.startsWith("#")).forEach(l -> {
                if (l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\"")) {
                    h[0] += (long) value(l);
                } else if (l.startsWith("jvm_threads_live_threads")) {
                    h[1] = (long) value(l);
                }
            });
            heap = Math.max(heap, h[0]);
            threads = Math.max(threads, h[1]);
        } catch (Exception e) {
            failures++;
        }
    }

    private static double value(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    /** The server's connections to its database that are not idle now. */
    synchronized long busyConnections() throws SQLException {
        try (var s = db.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                + "AND pid <> pg_backend_pid() AND state IS NOT NULL AND state <> 'idle'"); var rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    synchronized Counts counts() throws SQLException {
        try (var s = db.createStatement(); var rs = s.executeQuery("SELECT (SELECT count(*) FROM audit_entry), "
                + "(SELECT count(*) FROM mcp_session WHERE ended_at IS NULL), pg_database_size(current_database())")) {
            rs.next();
            return new Counts(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
    }

    /** Starts a new phase's peaks. */
    synchronized void reset() {
        heap = -1;
        threads = -1;
        busy = -1;
        failures = 0;
    }

    synchronized Peaks peaks() {
        return new Peaks(heap, threads, busy, failures);
    }

    @Override
    public void close() throws Exception {
        sampler.shutdownNow();
        sampler.awaitTermination(5, TimeUnit.SECONDS);
        db.close();
    }
}
