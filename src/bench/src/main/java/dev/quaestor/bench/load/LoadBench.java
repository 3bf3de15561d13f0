package dev.quaestor.bench.load;

import dev.quaestor.bench.BenchMain;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.TestIssuer;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Load on the whole audited path: MCP {@code resources/read} of a 1 KiB text file over Streamable
 * HTTP (token check, policy, two committed audit records, rate limit, provider) against the same
 * bytes from {@code GET /baseline/...} on the same server with the same token, in the same run.
 * One production-mode server on local PostgreSQL (a fresh database) and a local signed-token
 * issuer. Run with {@code bench/load.sh [options]}; {@code --help} lists them.
 */
public final class LoadBench {

    private static final String DB = "quaestor_bench_load";
    private static final String FILE = AuditedServer.FILE;
    private static final String URI_TEXT = AuditedServer.URI;
    /** The warm-up goes on in slices of this many seconds until C2 used under SETTLED_C2_CORES in one. */
    private static final int SLICE_SECONDS = 5;
    private static final double SETTLED_C2_CORES = 0.05;
    private static final Set<String> OVERLOAD_ANSWERS = Set.of("HTTP 503 -32005", "HTTP 200 -32005", "HTTP 429 -32004",
            "HTTP 429");

    public static void main(String[] args) {
        BenchMain.runAndExit(LoadBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        var o = LoadOptions.parse(args);
        if (o == null) {
            return;
        }
        var setup = AuditedServer.prepare("load", DB, o.limitPerUser, o.heap, o.serverOptions);
        Path work = setup.content().getParent();
        var env = setup.env();
        var jvm = new ArrayList<String>(setup.jvm());
        Path java = o.java != null ? Path.of(o.java) : Path.of(System.getProperty("java.home"), "bin", "java");
        Path aotCache = work.resolve("quaestor.aot");

        var report = new Report(o);
        var tokens = new ArrayList<String>();
        for (int i = 0; i < o.subjects; i++) {
            tokens.add(TestIssuer.sign(TestIssuer.claims(String.format("load-%04d", i)).expiresIn(4 * 3600)
                    .claim("realm_access", Map.of("roles", List.of("bench-reader")))));
        }

        // First start: on the fresh database, so Flyway's migrations run (a new install, or the migration Job's
        // work). With --aot it is also the training run. Then a restart on the migrated database, as every pod
        // of a deployment starts: that one is measured for the start-up target and then put under load.
        var first = new ArrayList<>(jvm);
        Path cdsArchive = work.resolve("quaestor.jsa");
        if (o.cds) {
            Files.deleteIfExists(cdsArchive);
            first.add("-XX:ArchiveClassesAtExit=" + cdsArchive);
        }
        if (o.aot) {
            Files.deleteIfExists(aotCache);
            first.add("-XX:AOTCacheOutput=" + aotCache);
        }
        double firstStart;
        try (var server = new ServerProcess("bench-load", env, first, java)) {
            firstStart = startToReady(server);
            if (o.aot || o.cds) {
                train(server, tokens.get(0));
                // The archive or cache is written as the JVM exits: that time is added to a pod's shutdown.
                long s = System.nanoTime();
                server.stop();
                System.out.printf("training start stopped, its %s written, in %.2f s%n", o.cds ? "CDS archive" : "AOT cache",
                        (System.nanoTime() - s) / 1e9);
            }
        }
        if (o.aot && !Files.exists(aotCache)) {
            throw new IllegalStateException("--aot: the training run wrote no " + aotCache + " (JDK 24+ needed; see src/server/target/bench-load.log)");
        }
        var measured = new ArrayList<>(jvm);
        if (o.cds) {
            if (!Files.exists(cdsArchive)) {
                throw new IllegalStateException("--cds: the training run wrote no " + cdsArchive + " (see src/server/target/bench-load.log)");
            }
            measured.add("-XX:SharedArchiveFile=" + cdsArchive);
        }
        if (o.aot) {
            measured.add("-XX:AOTCache=" + aotCache);
        }

        // As deploy/base/deployment.yaml runs a pod: the migration Job has migrated, the pod does not run Flyway.
        var podEnv = new java.util.HashMap<>(env);
        podEnv.put("QUAESTOR_MIGRATE_AT_START", "false");
        // Start-up varies from run to run by a few tenths of a second: --restarts N times N starts, the last one loaded.
        var restarts = new ArrayList<Double>();
        for (int i = 1; i < o.restarts; i++) {
            try (var server = new ServerProcess("bench-load", podEnv, measured, java)) {
                double seconds = startToReady(server);
                restarts.add(seconds);
                System.out.printf("restart %d of %d to ready: %.2f s, using %.2f core-s of CPU%n", i, o.restarts, seconds,
                        ProcStats.cpuTicks(server.pid()) * ProcStats.TICK_SECONDS);
            }
        }
        if (o.profile != null) {
            measured.add(Profiler.agentOption("load", o.profile, work)); // only in the start that is put under load
        }
        try (var server = new ServerProcess("bench-load", podEnv, measured, java)) {
            double startup = startToReady(server);
            long pid = server.pid();
            // CPU the process used to get ready: beside the wall time, it tells CPU-bound from waiting.
            double startupCpu = ProcStats.cpuTicks(pid) * ProcStats.TICK_SECONDS;
            var startupThreads = ProcStats.threadTicks(pid);
            Thread.sleep(2000);
            // Idle: what the server burns with no request at all (timers, pollers, background refreshes).
            var idle = ProcStats.Window.open(pid);
            Thread.sleep(5000);
            restarts.add(startup);
            report.startup(firstStart, startup, restarts, startupCpu, startupThreads, ProcStats.rssKib(pid), idle.close()[0],
                    java, o.aot);

            var mcp = new ArrayList<MultiMap>();
            var baseline = new ArrayList<MultiMap>();
            for (int i = 0; i < o.sessions; i++) {
                String token = tokens.get(i % tokens.size());
                String session = McpHttp.initialize(server.url(), token);
                mcp.add(MultiMap.caseInsensitiveMultiMap()
                        .add("Authorization", "Bearer " + token)
                        .add("Content-Type", "application/json")
                        .add("Accept", "application/json, text/event-stream")
                        .add("MCP-Protocol-Version", "2025-06-18")
                        .add("Mcp-Session-Id", session));
                baseline.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token));
            }
            var read = new Target("audited", HttpMethod.POST, "/mcp", mcp, Buffer.buffer(
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + URI_TEXT + "\"}}"),
                    "\"contents\"", 0);
            var base = new Target("baseline", HttpMethod.GET, "/baseline/" + FILE, baseline, null, null, 1024);
            int port = URI.create(server.url()).getPort();

            try (var driver = new LoadDriver(port, o.sessions, pid, Duration.ofMillis(o.clientTimeoutMs))) {
                System.out.printf("%nwarm-up: closed loop on each endpoint, at least %d s, then until the C2 compiler "
                        + "uses under %.2f cores over %d s (at most %d s)%n", o.warmup, SETTLED_C2_CORES, SLICE_SECONDS,
                        o.warmupMax);
                warmUp(driver, base, o, pid);
                warmUp(driver, read, o, pid);

                double rate = o.rate;
                if (o.saturation) {
                    System.out.printf("saturation: closed loop, %d requests in flight, %d s each%n", o.sessions, o.duration);
                    var satBase = driver.closed(base, o.sessions, Duration.ofSeconds(o.duration));
                    var satRead = driver.closed(read, o.sessions, Duration.ofSeconds(o.duration));
                    report.saturation(satRead, satBase);
                    rate = o.rate > 0 ? o.rate : Math.max(100, Math.round(satRead.throughput() / 2));
                }
                System.out.printf("open loop at %.0f/s (%s), %d s each%n", rate,
                        o.rate > 0 ? "--rate" : "50% of the audited saturation", o.duration);
                var openBase = driver.open(base, rate, Duration.ofSeconds(o.duration));
                LoadResult openRead;
                PgWaits waits = o.pgWaits ? PgWaits.start(env.get("QUAESTOR_DB_URL")) : null;
                try (waits) {
                    openRead = driver.open(read, rate, Duration.ofSeconds(o.duration));
                }
                report.openLoop(openRead, openBase);
                if (waits != null) {
                    waits.print();
                }
            }

            if (o.overloadSeconds > 0 && o.saturation) {
                double rate = 2 * Math.max(report.auditedSaturation(), 100);
                System.out.printf("overload: open loop at %.0f/s (2x the audited saturation) for %d s, up to %d connections%n",
                        rate, o.overloadSeconds, o.overloadConnections);
                var rss = new LinkedHashMap<Integer, Long>();
                var sampler = Executors.newSingleThreadScheduledExecutor();
                long start = System.nanoTime();
                sampler.scheduleAtFixedRate(() -> rss.put((int) Math.round((System.nanoTime() - start) / 1e9),
                        ProcStats.rssKib(pid)), 10, 10, TimeUnit.SECONDS);
                LoadResult over;
                try (var driver = new LoadDriver(port, o.overloadConnections, pid, Duration.ofMillis(o.clientTimeoutMs))) {
                    over = driver.open(read, rate, Duration.ofSeconds(o.overloadSeconds));
                } finally {
                    sampler.shutdownNow();
                    sampler.awaitTermination(5, TimeUnit.SECONDS);
                }
                report.overload(over, rss, OVERLOAD_ANSWERS);
            }
            if (o.hold > 0) {
                System.out.printf("%nholding the server for %d s: %s%n  token:   %s%n  session: %s%n  uri:     %s%n", o.hold,
                        server.url(), tokens.get(0), mcp.get(0).get("Mcp-Session-Id"), URI_TEXT);
                Thread.sleep(o.hold * 1000L);
            }
        }
        report.summary();
        if (o.profile != null) {
            System.out.printf("profile (%s, whole server run): %s%n", o.profile, Profiler.output("load", o.profile, work));
        }
    }

    /** What the AOT training run does besides starting: the read path and the baseline, a few hundred times. */
    private static void train(ServerProcess server, String token) throws Exception {
        String session = McpHttp.initialize(server.url(), token);
        var http = HttpClient.newHttpClient();
        var base = HttpRequest.newBuilder(URI.create(server.url() + "/baseline/" + FILE))
                .header("Authorization", "Bearer " + token).build();
        for (int i = 0; i < 300; i++) {
            McpHttp.read(server.url(), token, session, URI_TEXT);
            http.send(base, HttpResponse.BodyHandlers.discarding());
        }
    }

    /**
     * Closed loop on the target for {@code --warmup} seconds, then in slices until the JIT has settled: on a slow
     * machine C2 is still compiling the read path after a fixed warm-up, and takes a core from the measured phase.
     */
    private static void warmUp(LoadDriver driver, Target target, LoadOptions o, long pid) throws Exception {
        long start = System.nanoTime();
        driver.closed(target, o.sessions, Duration.ofSeconds(o.warmup));
        double c2 = Double.NaN;
        while ((System.nanoTime() - start) / 1e9 + SLICE_SECONDS <= o.warmupMax) {
            long before = c2Ticks(pid);
            driver.closed(target, o.sessions, Duration.ofSeconds(SLICE_SECONDS));
            c2 = Math.max(0, c2Ticks(pid) - before) * ProcStats.TICK_SECONDS / SLICE_SECONDS;
            if (c2 < SETTLED_C2_CORES) {
                break;
            }
        }
        System.out.printf("  %s: %.0f s; C2 in the last %d s: %s%n", target.name(), (System.nanoTime() - start) / 1e9,
                SLICE_SECONDS, Double.isNaN(c2) ? "not measured (--warmup-max reached)"
                        : String.format("%.2f cores%s", c2, c2 < SETTLED_C2_CORES ? "" : " (not settled: --warmup-max reached)"));
    }

    private static long c2Ticks(long pid) {
        return ProcStats.threadTicks(pid).entrySet().stream().filter(e -> e.getKey().startsWith("C2 Compiler"))
                .mapToLong(java.util.Map.Entry::getValue).sum();
    }

    /** Starts the server and returns the seconds from process start to ready (see {@link #awaitReady}). */
    static double startToReady(ServerProcess server) throws Exception {
        long t0 = System.nanoTime();
        server.start();
        awaitReady(server, Duration.ofSeconds(60));
        return (System.nanoTime() - t0) / 1e9;
    }

    /** Start-up is measured from process start to the first UP from /q/health/ready ({@link ReadyProbe}). */
    static void awaitReady(ServerProcess server, Duration within) throws Exception {
        if (!ReadyProbe.await(server.url(), within, () -> server.pid() > 0 && ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false))) {
            server.awaitReady(Duration.ofSeconds(1)); // says why (exited, or not ready)
        }
    }

    static String now() {
        return Instant.now().toString();
    }
}
