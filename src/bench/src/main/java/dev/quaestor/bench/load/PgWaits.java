package dev.quaestor.bench.load;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where the audit writer's batch statements spend their time inside PostgreSQL, sampled during a phase
 * ({@code --pg-waits true}): every {@value #PERIOD_MS} ms one query of {@code pg_stat_activity} on its own
 * connection notes the wait event (or CPU) of each active batch statement, and of the WAL writer,
 * checkpointer and background writer. A statement seen in consecutive samples lasted at least the period
 * between them; its samples are kept apart, so the waits of the slow statements (the ones every request
 * behind them waits for) show separately from the rest. {@code pg_stat_bgwriter} and {@code pg_stat_wal}
 * are read before and after, for checkpoints, buffers written by backends and WAL buffer overflows.
 *
 * <p>Sampling is coarse by design (a query every few ms costs the server a little CPU, printed with the
 * phase): it finds what dominates, not every short wait.
 */
final class PgWaits implements AutoCloseable {

    static final int PERIOD_MS = 2;
    /** A statement seen in this many consecutive samples is a slow one (at least {@code (n-1) * PERIOD_MS}). */
    private static final int SLOW_SAMPLES = 5;
    /** The audit writer's batch statement on PostgreSQL ({@code ChainedBatch}) begins so. */
    private static final String BATCH_PREFIX = "WITH entries";
    private static final String ACTIVITY = """
            SELECT pid, query_start, coalesce(wait_event_type || ':' || wait_event, 'CPU'), backend_type,
                   left(query, 12)
            FROM pg_stat_activity
            WHERE pid <> pg_backend_pid() AND datname = current_database() AND state = 'active'
               OR backend_type IN ('walwriter', 'checkpointer', 'background writer')""";
    private static final String COUNTERS = """
            SELECT b.checkpoints_timed + b.checkpoints_req, b.buffers_checkpoint, b.buffers_clean, b.buffers_backend,
                   b.buffers_backend_fsync, w.wal_buffers_full, w.wal_write, w.wal_sync
            FROM pg_stat_bgwriter b, pg_stat_wal w""";
    private static final List<String> COUNTER_NAMES = List.of("checkpoints", "buffers written by checkpoints",
            "by the background writer", "by backends", "backend fsyncs", "WAL buffers full", "WAL writes", "WAL syncs");

    private final String jdbcUrl;
    private final Thread thread;
    private volatile boolean running = true;
    private long[] before;
    private long[] after;
    private final Map<String, Integer> all = new TreeMap<>();
    private final Map<String, Integer> slow = new TreeMap<>();
    private final Map<String, Integer> background = new TreeMap<>();
    private long samples;
    private long statements;
    private long slowStatements;
    private SQLException failure;

    private PgWaits(String jdbcUrl) {
        this.jdbcUrl = jdbcUrl;
        this.thread = new Thread(this::sample, "pg-waits");
        this.thread.setDaemon(true);
    }

    static PgWaits start(String jdbcUrl) throws SQLException {
        var w = new PgWaits(jdbcUrl);
        try (var c = w.connect()) {
            w.before = counters(c);
        }
        w.thread.start();
        return w;
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, "postgres", "");
    }

    private void sample() {
        // One open statement per key "pid@query_start": its wait events so far and how many samples saw it.
        Map<String, Map<String, Integer>> open = new HashMap<>();
        try (var c = connect(); PreparedStatement ps = c.prepareStatement(ACTIVITY)) {
            while (running) {
                samples++;
                var seen = new java.util.HashSet<String>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        String event = rs.getString(3);
                        String type = rs.getString(4);
                        if (!"client backend".equals(type)) {
                            if (!event.equals("CPU") && !event.startsWith("Activity:")) {
                                background.merge(type + " " + event, 1, Integer::sum);
                            }
                            continue;
                        }
                        String query = rs.getString(5);
                        if (query == null || !query.startsWith(BATCH_PREFIX) || rs.getTimestamp(2) == null) {
                            continue;
                        }
                        String key = rs.getInt(1) + "@" + rs.getTimestamp(2).getTime() + "." + rs.getTimestamp(2).getNanos();
                        seen.add(key);
                        open.computeIfAbsent(key, k -> new HashMap<>()).merge(event, 1, Integer::sum);
                        all.merge(event, 1, Integer::sum);
                    }
                }
                var finished = open.keySet().stream().filter(k -> !seen.contains(k)).toList();
                for (String k : finished) {
                    finish(open.remove(k));
                }
                Thread.sleep(PERIOD_MS);
            }
            open.values().forEach(this::finish);
        } catch (SQLException e) {
            failure = e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void finish(Map<String, Integer> events) {
        statements++;
        int n = events.values().stream().mapToInt(Integer::intValue).sum();
        if (n >= SLOW_SAMPLES) {
            slowStatements++;
            events.forEach((e, k) -> slow.merge(e, k, Integer::sum));
        }
    }

    private static long[] counters(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(COUNTERS)) {
            rs.next();
            long[] v = new long[COUNTER_NAMES.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = rs.getLong(i + 1);
            }
            return v;
        }
    }

    /** Stops sampling at the end of the phase. */
    @Override
    public void close() throws Exception {
        running = false;
        thread.join(5000);
        try (var c = connect()) {
            after = counters(c);
        }
    }

    /** Prints what it saw, indented under the phase's table. */
    void print() {
        if (failure != null) {
            System.out.println("  pg-waits: sampling failed: " + failure.getMessage());
            return;
        }
        System.out.printf("  PostgreSQL waits (pg_stat_activity every %d ms, %d samples; audit batch statements seen: %d, "
                + "of them in >= %d consecutive samples, i.e. >= %d ms: %d)%n", PERIOD_MS, samples, statements, SLOW_SAMPLES,
                (SLOW_SAMPLES - 1) * PERIOD_MS, slowStatements);
        System.out.println("    all batch statements, share of samples: " + shares(all));
        System.out.println("    slow batch statements, share of samples: " + shares(slow));
        System.out.println("    background processes, waiting samples: " + background);
        var delta = new LinkedHashMap<String, Long>();
        for (int i = 0; i < after.length; i++) {
            delta.put(COUNTER_NAMES.get(i), after[i] - before[i]);
        }
        System.out.println("    during the phase (pg_stat_bgwriter, pg_stat_wal): " + delta);
    }

    private static String shares(Map<String, Integer> counts) {
        double total = counts.values().stream().mapToInt(Integer::intValue).sum();
        if (total == 0) {
            return "none";
        }
        return counts.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .map(e -> String.format("%s %.0f%%", e.getKey(), 100 * e.getValue() / total))
                .collect(Collectors.joining(", "));
    }
}
