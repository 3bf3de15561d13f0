package dev.quaestor.bench.isolation;

import dev.quaestor.bench.audit.SignedHistory;
import dev.quaestor.bench.BenchMain;
import dev.quaestor.bench.ProdServerSetup;
import dev.quaestor.bench.load.LoadDriver;
import dev.quaestor.bench.load.LoadResult;
import dev.quaestor.bench.load.Target;
import dev.quaestor.support.McpHttp;
import dev.quaestor.support.Repo;
import dev.quaestor.support.ServerProcess;
import dev.quaestor.support.TestIssuer;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Isolation: a legitimate client reads a public file at a fixed rate (a share of the audited saturation, open
 * loop, under limits well above its rate), first alone, then beside each abuser in turn ({@link Abusers}), each
 * phase as long; one table of its latency and errors beside the server's audit rows, database growth, heap and
 * threads. One production-mode server (the packaged jar) on local PostgreSQL (a fresh database) with a signed log
 * of {@code --history-records} records written first, and a local signed-token issuer. Run with
 * src/bench/isolation.sh; {@code --help} lists the options.
 */
public final class IsolationBench {

    private static final String DB = "quaestor_bench_isolation";

    public static void main(String[] args) {
        BenchMain.runAndExit(IsolationBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        var o = IsolationOptions.parse(args);
        if (o == null) {
            return;
        }
        Path work = Repo.ROOT.resolve(Path.of("src", "bench", "target", "isolation"));
        var content = IsolationContent.create(work.resolve("content"), o.listenUris, o.largeMib, work.resolve("archive"),
                o.archiveFiles);
        var env = ProdServerSetup.environment("bench-isolation", DB, """
                apiVersion: quaestor/v1
                kind: Policy
                metadata:
                  name: isolation
                  description: Everyone reads and listens to the bench mount, under a per-subject limit far above any rate here
                rules:
                  - id: isolation-public
                    effect: allow
                    actions: [read, subscribe]
                    resources: ["file:///bench/**"]
                    subjects: {subjects: ["*"]}
                limits:
                  - id: isolation-per-subject
                    key: subject
                    capacity: 1000000
                    refill: {tokens: 1000000, period: 1s}
                    resources: ["file:///bench/**"]
                """, false);
        var jvm = new ArrayList<>(List.of("-Xmx" + o.heap, "-XX:+UseSerialGC",
                "-Dquaestor.mounts.bench.provider=filesystem",
                "-Dquaestor.mounts.bench.uri=" + IsolationContent.MOUNT,
                "-Dquaestor.mounts.bench.root=" + content.root(),
                "-Dquaestor.mounts.bench.max-bytes=" + (4L << 30),
                "-Dquaestor.mounts.bench.timeout-ms=30000",
                // Listed before the bench mount (mounts list by name), and granted to no one.
                "-Dquaestor.mounts.archive.provider=filesystem",
                "-Dquaestor.mounts.archive.uri=" + IsolationContent.ARCHIVE,
                "-Dquaestor.mounts.archive.root=" + content.archiveRoot(),
                // The listens name more URIs than the default allows, so that they are held rather than refused.
                "-Dquaestor.subscriptions.max-listen-uris=" + o.listenUris,
                // The harness stands where an ingress would: its forwarding header is believed, so the forgeries
                // below each count against an address of their own and the total bound is what holds.
                "-Dquaestor.http.forwarded.trusted-proxies=127.0.0.1/32"));
        String reader = sign("isolation-reader", List.of());
        String abuser = sign("isolation-abuser", List.of());
        String auditor = sign("isolation-auditor", List.of("quaestor-auditor"));
        String scraper = sign("isolation-metrics", List.of("quaestor-metrics"));

        try (var server = new ServerProcess("bench-isolation", env, jvm)) {
            server.start();
            server.awaitReady(Duration.ofSeconds(120));
            int port = URI.create(server.url()).getPort();
            System.out.printf("server %s (pid %d, -Xmx%s, SerialGC), log %s%n", server.url(), server.pid(), o.heap, server.log());

            double historySeconds = SignedHistory.write(env.get("QUAESTOR_DB_URL"), env.get("QUAESTOR_AUDIT_SIGNING_KEY_FILE"),
                    "history", o.historyRecords);
            System.out.printf("signed log 'history': %,d records written in %.1f s with the server's key%n", o.historyRecords,
                    historySeconds);
            System.out.println("one verify of the whole database first: " + verifyOnce(server.url(), auditor));

            var sessions = new ArrayList<MultiMap>();
            for (int i = 0; i < 8; i++) {
                sessions.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + reader)
                        .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                        .add("MCP-Protocol-Version", "2025-06-18").add("Mcp-Session-Id", McpHttp.initialize(server.url(), reader)));
            }
            var read = new Target("legitimate read", HttpMethod.POST, "/mcp", sessions, Buffer.buffer(
                    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{\"uri\":\"" + content.publicUri() + "\"}}"),
                    "public text the legitimate client reads", 0);

            var phases = new ArrayList<PhaseResult>();
            try (var gauges = new ServerGauges(server.url(), scraper, env.get("QUAESTOR_DB_URL"))) {
                var bench = new Bench(server, port, read, gauges, o);
                double rate = o.rate;
                if (rate <= 0) {
                    bench.warmUp();
                    LoadResult sat;
                    try (var driver = bench.driver()) {
                        sat = driver.closed(read, 64, Duration.ofSeconds(o.saturationSeconds));
                    }
                    rate = Math.max(10, Math.round(o.rateShare * sat.throughput()));
                    System.out.printf("audited saturation (closed loop, 64 in flight, %d s after a %d s warm-up): %.0f reads/s, "
                            + "errors %s; the legitimate client reads at %.0f/s (%.0f%%)%n", o.saturationSeconds, o.warmupSeconds,
                            sat.throughput(), sat.errorSummary(), rate, 100 * o.rateShare);
                } else {
                    bench.warmUp();
                    System.out.printf("the legitimate client reads at %.0f/s (--rate)%n", rate);
                }
                bench.stage = new Stage(server.url(), port, rate, o.phaseSeconds, abuser, auditor);
                phases.add(bench.phase("alone", null));
                for (Abuser a : Abusers.all(content, server::pid, o)) {
                    if (o.only == null || Arrays.stream(o.only.split(",")).anyMatch(w -> a.name().contains(w.strip()))) {
                        phases.add(bench.phase("beside " + a.name(), a));
                    }
                }
                IsolationTable.print(phases, rate);
            }
            if (ProcessHandle.of(server.pid()).map(h -> !h.isAlive()).orElse(true)) {
                System.out.println("the server had exited by the end: see " + server.log());
            }
        }
    }

    /** The server under test and what the phases share. */
    private static final class Bench {

        /** A read that has no connection 5 s after it was due, or no answer 5 s after it was sent, has failed. */
        private static final Duration WITHIN = Duration.ofMillis(PhaseResult.ANSWER_WITHIN_MICROS / 1000);

        private final ServerProcess server;
        private final int port;
        private final Target read;
        private final ServerGauges gauges;
        private final IsolationOptions o;
        Stage stage;

        Bench(ServerProcess server, int port, Target read, ServerGauges gauges, IsolationOptions o) {
            this.server = server;
            this.port = port;
            this.read = read;
            this.gauges = gauges;
            this.o = o;
        }

        /** The legitimate client: a generator of its own for each use, so that no phase inherits another's connections. */
        LoadDriver driver() {
            return new LoadDriver(port, 1024, server.pid(), WITHIN, WITHIN);
        }

        void warmUp() throws Exception {
            try (var driver = driver()) {
                driver.closed(read, 32, Duration.ofSeconds(o.warmupSeconds));
            }
        }

        PhaseResult phase(String name, Abuser abuser) throws Exception {
            if (abuser != null) {
                abuser.prepare(stage);
            }
            System.out.printf("%n[%tT] phase %s, %d s%s%n", System.currentTimeMillis(), name, o.phaseSeconds,
                    abuser == null ? "" : ": " + abuser.description());
            gauges.reset();
            var before = gauges.counts();
            long start = System.nanoTime();
            if (abuser != null) {
                abuser.start(stage);
            }
            LoadResult r;
            try (var legit = driver()) {
                r = legit.open(read, stage.rate(), Duration.ofSeconds(o.phaseSeconds));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            var peaks = gauges.peaks();
            String abuse = abuser == null ? null : abuser.stop();
            var after = gauges.counts();
            var p = PhaseResult.of(name, r, before, after, peaks, seconds, abuse);
            System.out.printf("  legitimate: %,d reads, p50 %.2f ms, p99 %.2f ms, errors %,d %s (phase took %.0f s)%n", r.sent(),
                    r.ms(50), r.ms(99), p.errors(), r.errorSummary(), seconds);
            if (abuse != null) {
                System.out.println("  abuser: " + abuse);
            }
            String restarted = settleOrRestart();
            return restarted == null ? p : PhaseResult.of(name, r, before, after, peaks, seconds, abuse + "; " + restarted);
        }

        /**
         * Waits until the server's database connections have been idle for two samples in a row, at most
         * {@code --settle-seconds}; if they are still busy then (work the abuse left behind, e.g. verifies whose
         * clients have gone), or the server has exited, restarts it on the same database and warms it up again, so
         * that the next phase starts from a server that holds nothing. Returns what was done, or null.
         */
        private String settleOrRestart() throws Exception {
            long start = System.nanoTime();
            int idle = 0;
            boolean alive = true;
            while (idle < 2 && (alive = alive()) && System.nanoTime() - start < o.settleSeconds * 1_000_000_000L) {
                idle = gauges.busyConnections() == 0 ? idle + 1 : 0;
                Thread.sleep(500);
            }
            if (idle >= 2) {
                return null;
            }
            String why = alive ? String.format("its database connections were still busy %d s after the abuse ended (%d busy)",
                    o.settleSeconds, gauges.busyConnections()) : "it had exited";
            System.out.printf("  server restarted before the next phase: %s%n", why);
            server.stop();
            server.start();
            server.awaitReady(Duration.ofSeconds(120));
            warmUp();
            return "server restarted after: " + why;
        }

        private boolean alive() {
            return ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false);
        }
    }

    private static String verifyOnce(String url, String auditor) throws Exception {
        long start = System.nanoTime();
        var res = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(HttpRequest.newBuilder(
                URI.create(url + "/audit/verify")).timeout(Duration.ofMinutes(10)).header("Authorization", "Bearer " + auditor).build(),
                HttpResponse.BodyHandlers.ofString());
        String body = res.body();
        if (res.statusCode() != 200 || !body.contains("\"verified\":true")) {
            throw new IllegalStateException("the signed log does not verify: HTTP " + res.statusCode() + " "
                    + body.substring(0, Math.min(body.length(), 2000)));
        }
        int at = body.indexOf("\"log\":\"history\"");
        String history = at < 0 ? "(no log 'history')" : body.substring(at, Math.min(body.length(), body.indexOf('}', at) + 1));
        return String.format("HTTP 200, verified, %.1f s; %s", (System.nanoTime() - start) / 1e9, history);
    }

    private static String sign(String subject, List<String> roles) {
        return TestIssuer.sign(TestIssuer.claims(subject).expiresIn(6 * 3600).claim("realm_access", Map.of("roles", roles)));
    }
}
