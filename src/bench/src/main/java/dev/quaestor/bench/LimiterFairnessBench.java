package dev.quaestor.bench;

import dev.quaestor.support.McpHttp;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.TestIssuer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Does a noisy client hurt a quiet one? One production-mode server (memory or Redis limits,
 * PostgreSQL audit, signed tokens from a local issuer). A quiet client reads at a fixed rate and
 * its latency is sampled, first alone, then while a noisy client sends ten times its own limit.
 * Prints p50/p99 of the quiet client in both phases, the noisy client's rejections, and the p99
 * ratio (target: below 1.10). Run with bench/ratelimit-fairness.sh [memory|redis] [seconds per condition, 360] [seconds per block, 15].
 */
public final class LimiterFairnessBench {

    private static final String DB = "quaestor_bench_fair";
    private static final String URI = "file:///docs/handbook/welcome.md";
    private static final int LIMIT_PER_SECOND = 20;
    private static final int QUIET_PER_SECOND = 10;
    private static final int WARM_SUBJECTS = 200;
    private static final int WARM_THREADS = 16;
    private static final int WARM_SECONDS = 40;

    public static void main(String[] args) {
        BenchMain.runAndExit(LimiterFairnessBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        String backend = args.length > 0 ? args[0] : "memory";
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 360;
        int blockSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 15;
        int blocks = Math.max(2, seconds / blockSeconds);
        var env = ProdServerSetup.environment("fairness", DB, """
                apiVersion: quaestor/v1
                kind: Policy
                limits:
                  - id: handbook-per-user
                    key: subject
                    capacity: %d
                    refill: {tokens: %d, period: 1s}
                    resources: ["file:///docs/handbook/**"]
                """.formatted(LIMIT_PER_SECOND, LIMIT_PER_SECOND));
        env.put("QUAESTOR_RATELIMIT_BACKEND", backend);
        try (var server = new ServerProcess("fairness-server", env)) {
            server.start();
            server.awaitReady(Duration.ofSeconds(60));
            // Signed for an hour: the run outlasts the issuer's usual 5-minute tokens.
            String quietToken = TestIssuer.sign(TestIssuer.claims("bob").expiresIn(3600));
            String noisyToken = TestIssuer.sign(TestIssuer.claims("alice").expiresIn(3600));
            // Each client has its own HTTP/1.1 connections, as two agents on two machines would: with one shared
            // JDK client both would be multiplexed over one HTTP/2 (h2c) connection, served by one event loop.
            var quietHttp = McpHttp.newClient();
            var noisyHttp = McpHttp.newClient();
            String quietSession = McpHttp.initialize(quietHttp, server.url(), quietToken);
            String noisySession = McpHttp.initialize(noisyHttp, server.url(), noisyToken);

            System.out.printf("backend %s, quiet client %d reads/s, noisy client %d reads/s against a limit of %d/s, "
                    + "%d blocks of %d s per condition, alternating%n",
                    backend, QUIET_PER_SECOND, 10 * LIMIT_PER_SECOND, LIMIT_PER_SECOND, blocks, blockSeconds);
            // JIT warm-up: a server in production has compiled its read path long before anyone compares latencies;
            // at 10-20 reads/s it would take minutes to get there, and every phase would measure the compiler.
            warmUp(server.url(), WARM_SUBJECTS, WARM_THREADS, WARM_SECONDS);
            // Then 30 s of both measured clients just under the limit (their own sessions and buckets warmed too).
            long warmUntil = System.nanoTime() + 30_000_000_000L;
            while (System.nanoTime() < warmUntil) {
                long t = System.nanoTime();
                McpHttp.read(quietHttp, server.url(), quietToken, quietSession, URI);
                McpHttp.read(noisyHttp, server.url(), noisyToken, noisySession, URI);
                long rest = 1_000_000_000L / (LIMIT_PER_SECOND - 2) - (System.nanoTime() - t);
                if (rest > 0) {
                    Thread.sleep(rest / 1_000_000, (int) (rest % 1_000_000));
                }
            }
            AtomicBoolean noisy = new AtomicBoolean(false);
            AtomicLong sent = new AtomicLong();
            AtomicLong rejected = new AtomicLong();
            AtomicLong other = new AtomicLong();
            var flood = Executors.newScheduledThreadPool(8);
            long periodMicros = 1_000_000L / (10L * LIMIT_PER_SECOND);
            flood.scheduleAtFixedRate(() -> {
                if (!noisy.get()) {
                    return;
                }
                try {
                    var a = McpHttp.read(noisyHttp, server.url(), noisyToken, noisySession, URI);
                    sent.incrementAndGet();
                    if (a.status() == 429) {
                        rejected.incrementAndGet();
                    } else if (!a.servedContent()) {
                        other.incrementAndGet();
                    }
                } catch (Exception e) {
                    other.incrementAndGet();
                }
            }, 0, periodMicros, TimeUnit.MICROSECONDS);

            var alone = new ArrayList<long[]>();
            var contended = new ArrayList<long[]>();
            for (int b = 0; b < blocks * 2; b++) {
                // alone, noisy, noisy, alone, alone, noisy, ... (ABBA: a linear drift cancels out)
                boolean withNoisy = (b % 4 == 1) || (b % 4 == 2);
                noisy.set(withNoisy);
                Thread.sleep(1500); // let the flood start or drain; not measured
                (withNoisy ? contended : alone).add(quiet(quietHttp, server.url(), quietToken, quietSession, blockSeconds));
            }
            noisy.set(false);
            flood.shutdownNow();
            flood.awaitTermination(10, TimeUnit.SECONDS);

            long[] quietAlone = pool(alone);
            long[] quietContended = pool(contended);
            print("quiet client alone", quietAlone);
            print("quiet client with noisy neighbour", quietContended);
            System.out.printf("per-block p99 (ms), alone: %s%n", blockP99s(alone));
            System.out.printf("per-block p99 (ms), noisy: %s%n", blockP99s(contended));
            System.out.printf("noisy client: %d sent, %d rejected with 429, %d other outcomes%n", sent.get(), rejected.get(), other.get());
            double ratio = (double) p(quietContended, 0.99) / p(quietAlone, 0.99);
            System.out.printf("quiet client's p99 ratio (with / alone, pooled): %.3f (target < 1.10)%n", ratio);
        }
    }

    /**
     * Closed-loop reads from {@code threads} threads for {@code seconds}, spread over {@code subjects}
     * subjects other than the two measured ones (whose buckets stay untouched). Refusals count as
     * warm-up too: they run most of the same path.
     */
    private static void warmUp(String url, int subjects, int threads, int seconds) throws Exception {
        var sessions = new ArrayList<String[]>();
        for (int i = 0; i < subjects; i++) {
            String token = TestIssuer.sign(TestIssuer.claims(String.format("warm-%03d", i)).expiresIn(3600));
            sessions.add(new String[] {token, McpHttp.initialize(url, token)});
        }
        var pool = Executors.newFixedThreadPool(threads);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        AtomicLong served = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        for (int t = 0; t < threads; t++) {
            int first = t;
            pool.execute(() -> {
                for (int k = first; System.nanoTime() < until; k += threads) {
                    String[] s = sessions.get(k % sessions.size());
                    try {
                        (McpHttp.read(url, s[0], s[1], URI).servedContent() ? served : refused).incrementAndGet();
                    } catch (Exception e) {
                        refused.incrementAndGet();
                    }
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(seconds + 30L, TimeUnit.SECONDS);
        System.out.printf("JIT warm-up: %d s closed loop from %d threads over %d other subjects: %d reads served, %d refused%n",
                seconds, threads, subjects, served.get(), refused.get());
    }

    private static long[] pool(List<long[]> blocks) {
        long[] all = blocks.stream().flatMapToLong(Arrays::stream).toArray();
        Arrays.sort(all);
        return all;
    }

    private static String blockP99s(List<long[]> blocks) {
        return blocks.stream().map(b -> String.format("%.1f", p(b, 0.99) / 1000.0)).collect(Collectors.joining(" "));
    }

    /** Reads at a fixed rate for {@code seconds}; returns the sorted latencies in microseconds. */
    private static long[] quiet(java.net.http.HttpClient http, String url, String token, String session, int seconds)
            throws Exception {
        int n = seconds * QUIET_PER_SECOND;
        long[] out = new long[n];
        long interval = 1_000_000_000L / QUIET_PER_SECOND;
        long next = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long t = System.nanoTime();
            var a = McpHttp.read(http, url, token, session, URI);
            out[i] = (System.nanoTime() - t) / 1000;
            if (!a.servedContent()) {
                throw new IllegalStateException("the quiet client was refused: " + a.status() + " " + a.body());
            }
            next += interval;
        }
        Arrays.sort(out);
        return out;
    }

    private static long p(long[] sorted, double q) {
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }

    private static void print(String what, long[] sorted) {
        System.out.printf("%-36s n=%d  p50=%.2f ms  p99=%.2f ms  max=%.2f ms%n", what, sorted.length,
                p(sorted, 0.50) / 1000.0, p(sorted, 0.99) / 1000.0, sorted[sorted.length - 1] / 1000.0);
    }
}
