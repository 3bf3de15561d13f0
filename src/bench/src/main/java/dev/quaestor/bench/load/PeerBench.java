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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Quaestor beside its peer, quarkus-mcp-server 1.13 on the same Quarkus (src/bench-peer: no authentication, no audit,
 * the same 1 KiB file read from disk on every request), driven by the same generator in the same run:
 * <ol>
 * <li>start-up to ready, alternating the two servers, Quaestor on a migrated database;</li>
 * <li>rounds in alternating order: per server, CPU per read in the first seconds after ready (Quaestor), a warm-up,
 * then closed loops at each connection count on each endpoint, with the server's and PostgreSQL's CPU per 1,000
 * answers; for Quaestor, an open loop at half of its audited throughput for the p99.</li>
 * </ol>
 * Quaestor's endpoints: the audited read on 2025-06-18 (sessions), the same on 2026-07-28 (stateless), and the
 * bearer-only comparison endpoint. The peer's: its MCP read on 2025-06-18 and a bare REST GET of the same bytes.
 * Run with {@code src/bench/peer.sh [options]}; {@code --help} lists them.
 */
public final class PeerBench {

    private static final String DB = "quaestor_bench_peer";
    private static final String HELP = """
            src/bench/peer.sh [options]   (all optional)
              --restarts N        alternating starts of each server, timed to ready (5)
              --rounds N          measuring rounds, the order of the servers alternating (2)
              --seconds S         each closed loop, seconds (15)
              --warmup S          closed-loop warm-up per endpoint before measuring, seconds (60)
              --first S           Quaestor's audited read right after ready, seconds (10)
              --connections LIST  closed-loop connections, comma-separated (32,128)
              --heap SIZE         -Xmx of both servers (768m: 75% of the deployment's 1 GiB, as its MaxRAMPercentage=75 gives)
              --jvm-defaults true both servers on the JVM's own defaults instead (no -Xmx, no collector named)
              --server-opt OPT    extra JVM option for both servers, repeatable
              --java PATH         the servers' java executable (default: the harness's own)
              --endpoints LIST    only the endpoints whose names start with one of these, comma-separated
                                  (e.g. "bearer,bare" for the bearer-only GET beside the bare GET)
              --profile EV        Quaestor's measuring starts under async-profiler, with thread names (collapsed stacks
                                  in src/bench/target/peer/, written as each stops)
              --cds true          also time Quaestor with a dynamic AppCDS archive written by the first start
                                  (-XX:ArchiveClassesAtExit; the JDK the image runs on maps one the same way)
              --profile-measured EV
                                  both servers under async-profiler during each measured loop at the first
                                  connection count only (attached after the warm-up, stopped after the loop;
                                  profile-measured-SERVER-ENDPOINT-roundN-EV.collapsed, with thread names)
              --profile-start EV  one more Quaestor start under async-profiler (cpu, itimer, wall, alloc; options
                                  after a comma: wall,interval=2ms), stopped once ready; collapsed stacks in
                                  src/bench/target/peer/ (src/bench/startup-phases.py reads them)
            """;

    private PeerBench() {
    }

    public static void main(String[] args) {
        BenchMain.runAndExit(PeerBench::run, args);
    }

    /** One measured closed or open loop. */
    record Row(int round, String server, String endpoint, String load, LoadResult result, double pgCoreSeconds) {

        double cpuPerThousand() {
            return result.cpu()[0] * result.seconds() / Math.max(1, result.ok()) * 1000;
        }

        double pgPerThousand() {
            return pgCoreSeconds / Math.max(1, result.ok()) * 1000;
        }
    }

    private static void run(String[] args) throws Exception {
        int restarts = 5, rounds = 2, seconds = 15, warmup = 60, first = 10;
        List<Integer> connections = List.of(32, 128);
        String heap = "768m";
        boolean jvmDefaults = false;
        String profileStart = null;
        String profile = null;
        boolean cds = false;
        List<String> endpoints = List.of("");
        var serverOptions = new ArrayList<String>();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--restarts" -> restarts = Integer.parseInt(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                case "--seconds" -> seconds = Integer.parseInt(v);
                case "--warmup" -> warmup = Integer.parseInt(v);
                case "--first" -> first = Integer.parseInt(v);
                case "--connections" -> connections = Arrays.stream(v.split(",")).map(Integer::parseInt).toList();
                case "--heap" -> heap = v;
                case "--jvm-defaults" -> jvmDefaults = Boolean.parseBoolean(v);
                case "--server-opt" -> serverOptions.add(v);
                case "--java" -> java = Path.of(v);
                case "--profile-start" -> profileStart = v;
                case "--profile" -> profile = v;
                case "--profile-measured" -> measuredProfile = v;
                case "--cds" -> cds = Boolean.parseBoolean(v);
                case "--endpoints" -> endpoints = List.of(v.split(","));
                case "--help" -> {
                    System.out.print(HELP);
                    return;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "\n" + HELP);
            }
            i++;
        }
        int maxConnections = connections.stream().mapToInt(Integer::intValue).max().orElseThrow();
        var setup = AuditedServer.prepare("peer", DB, 1_000_000, heap, serverOptions);
        // The JVM flags both servers run with: the deployment's (Serial, 75% of 1 GiB) or the JVM's defaults.
        var quaestorJvm = new ArrayList<>(setup.jvm());
        var peerJvm = new ArrayList<>(serverOptions);
        if (jvmDefaults) {
            quaestorJvm.removeIf(o -> o.startsWith("-Xmx") || o.equals("-XX:+UseSerialGC"));
        } else {
            peerJvm.addAll(List.of("-Xmx" + heap, "-XX:+UseSerialGC"));
        }
        var podEnv = new HashMap<>(setup.env());
        podEnv.put("QUAESTOR_MIGRATE_AT_START", "false");
        Path file = setup.content().resolve(AuditedServer.FILE);
        measuredWork = setup.content().getParent();
        System.out.printf("JVM: %s%n  Quaestor: %s%n  peer:     %s%n", java, quaestorJvm, peerJvm);

        var tokens = new ArrayList<String>();
        for (int i = 0; i < maxConnections; i++) {
            tokens.add(TestIssuer.sign(TestIssuer.claims(String.format("peer-%04d", i)).expiresIn(4 * 3600)
                    .claim("realm_access", Map.of("roles", List.of("bench-reader")))));
        }
        // The first start migrates the fresh database (the migration Job's work); it is not measured. With --cds it
        // also writes a dynamic AppCDS archive of the classes it loaded, which the "with AppCDS" starts map.
        var training = new ArrayList<>(quaestorJvm);
        Path archive = setup.content().getParent().resolve("quaestor.jsa");
        if (cds) {
            Files.deleteIfExists(archive);
            training.add("-XX:ArchiveClassesAtExit=" + archive);
        }
        try (var server = new ServerProcess("bench-peer-quaestor", setup.env(), training, java)) {
            LoadBench.startToReady(server);
        }
        var withArchive = new ArrayList<>(quaestorJvm);
        withArchive.add("-XX:SharedArchiveFile=" + archive);
        var startCds = new ArrayList<double[]>();

        var startQ = new ArrayList<double[]>();
        var startP = new ArrayList<double[]>();
        long idleRss = 0;
        for (int i = 0; i < restarts; i++) {
            for (boolean quaestor : i % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                if (quaestor) {
                    try (var server = new ServerProcess("bench-peer-quaestor", podEnv, quaestorJvm, java)) {
                        double s = LoadBench.startToReady(server);
                        startQ.add(new double[] {s, ProcStats.cpuTicks(server.pid()) * ProcStats.TICK_SECONDS});
                        Thread.sleep(2000);
                        idleRss = Math.max(idleRss, ProcStats.rssKib(server.pid()));
                    }
                } else {
                    try (var peer = new PeerProcess(java, peerJvm, file)) {
                        startP.add(new double[] {peerToReady(peer), ProcStats.cpuTicks(peer.pid()) * ProcStats.TICK_SECONDS});
                    }
                }
            }
            if (cds) {
                try (var server = new ServerProcess("bench-peer-quaestor", podEnv, withArchive, java)) {
                    double s = LoadBench.startToReady(server);
                    startCds.add(new double[] {s, ProcStats.cpuTicks(server.pid()) * ProcStats.TICK_SECONDS});
                }
            }
            System.out.printf("start %d: Quaestor %.2f s (%.2f core-s), peer %.2f s (%.2f core-s)%s%n", i + 1,
                    startQ.get(i)[0], startQ.get(i)[1], startP.get(i)[0], startP.get(i)[1], cds
                            ? String.format(", Quaestor with AppCDS %.2f s (%.2f core-s)", startCds.get(i)[0], startCds.get(i)[1]) : "");
        }

        if (profileStart != null) {
            var profiled = new ArrayList<>(quaestorJvm);
            Path work = setup.content().getParent();
            Files.deleteIfExists(Profiler.output("start", profileStart, work));
            profiled.add(Profiler.agentOption("start", profileStart, work) + ",threads"); // thread names: the JIT and GC apart
            try (var server = new ServerProcess("bench-peer-quaestor", podEnv, profiled, java)) {
                System.out.printf("profiled start: %.2f s to ready%n", LoadBench.startToReady(server));
            }
            System.out.printf("start-up profile (%s, process start to ready, then the stop): %s%n", profileStart,
                    Profiler.output("start", profileStart, work));
        }

        var rows = new ArrayList<Row>();
        for (int round = 1; round <= rounds; round++) {
            for (boolean quaestor : round % 2 == 1 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                if (quaestor) {
                    var jvm = new ArrayList<>(quaestorJvm);
                    if (profile != null) { // each round's own file, written as its server stops
                        Path work = setup.content().getParent();
                        Files.deleteIfExists(Profiler.output("round" + round, profile, work));
                        jvm.add(Profiler.agentOption("round" + round, profile, work) + ",threads");
                    }
                    try (var server = new ServerProcess("bench-peer-quaestor", podEnv, jvm, java)) {
                        LoadBench.startToReady(server);
                        var targets = only(endpoints, quaestorTargets(server.url(), tokens));
                        measure(rows, round, "Quaestor", URI.create(server.url()).getPort(), server.pid(), targets,
                                new int[] {first, warmup, seconds}, connections, true);
                    }
                } else {
                    try (var peer = new PeerProcess(java, peerJvm, file)) {
                        peerToReady(peer);
                        var targets = only(endpoints, peerTargets(peer.url(), maxConnections));
                        measure(rows, round, "peer", peer.port(), peer.pid(), targets, new int[] {0, warmup, seconds},
                                connections, false);
                    }
                }
            }
        }
        PeerReport.print(rows, startQ, startP, startCds, idleRss, connections.get(0));
    }

    /**
     * Per server: (Quaestor) the audited read right after ready, then a warm-up and the closed loops on every endpoint,
     * then (Quaestor) the open loop at half of its audited throughput at the first connection count.
     * {@code phases}: seconds of the first phase, the warm-up per endpoint, and each measured loop.
     */
    private static void measure(List<Row> rows, int round, String server, int port, long pid, List<Target> targets, int[] phases,
            List<Integer> connections, boolean openLoop) throws Exception {
        int max = connections.stream().mapToInt(Integer::intValue).max().orElseThrow();
        // The first seconds and the open loop are of the audited read, when it is measured.
        boolean auditedRead = !targets.isEmpty() && targets.get(0).name().equals("read 2025-06-18");
        try (var driver = new LoadDriver(port, max, pid, Duration.ofSeconds(30))) {
            if (phases[0] > 0 && auditedRead) {
                rows.add(run(driver, round, server, targets.get(0), connections.get(0), "first " + phases[0] + " s after ready",
                        Duration.ofSeconds(phases[0])));
            }
            for (var t : targets) {
                driver.closed(t, connections.get(0), Duration.ofSeconds(phases[1]));
            }
            for (int c : connections) {
                for (var t : targets) {
                    boolean profiled = measuredProfile != null && c == connections.get(0);
                    if (profiled) {
                        Profiler.attach(pid, measuredWork, "start,event=" + measuredProfile + ",threads");
                    }
                    rows.add(run(driver, round, server, t, c, c + " connections", Duration.ofSeconds(phases[2])));
                    if (profiled) {
                        String what = "measured-" + server + "-" + t.name().replaceAll("[^A-Za-z0-9]+", "-") + "-round" + round;
                        Path out = Profiler.output(what, measuredProfile, measuredWork);
                        Profiler.attach(pid, measuredWork, "stop,collapsed,file=" + out);
                    }
                }
            }
            if (openLoop && auditedRead) {
                double half = rows.stream().filter(r -> r.round() == round && r.server().equals(server)
                        && r.endpoint().equals(targets.get(0).name()) && r.load().equals(connections.get(0) + " connections"))
                        .findFirst().orElseThrow().result().throughput() / 2;
                long pg0 = ProcStats.commandTicks("postgres");
                var r = driver.open(targets.get(0), half, Duration.ofSeconds(phases[2]));
                rows.add(new Row(round, server, targets.get(0).name(), String.format("open loop at %.0f/s", half), r,
                        (ProcStats.commandTicks("postgres") - pg0) * ProcStats.TICK_SECONDS));
            }
        }
    }

    /** async-profiler's event for the measured loops of both servers ({@code --profile-measured}), or null. */
    private static String measuredProfile;
    /** Where the profiles go: the harness's work folder. */
    private static Path measuredWork;

    private static Row run(LoadDriver driver, int round, String server, Target t, int connections, String load, Duration d)
            throws Exception {
        long pg0 = ProcStats.commandTicks("postgres");
        var r = driver.closed(t, connections, d);
        var row = new Row(round, server, t.name(), load, r, (ProcStats.commandTicks("postgres") - pg0) * ProcStats.TICK_SECONDS);
        System.out.printf("round %d %-8s %-22s %-26s %,9.0f/s  %.3f core-s/1000 (PostgreSQL %.3f)  p99 %.2f ms  errors %s%n",
                round, server, t.name(), load, r.throughput(), row.cpuPerThousand(), row.pgPerThousand(), r.ms(99), r.errorSummary());
        return row;
    }

    private static List<Target> quaestorTargets(String url, List<String> tokens) throws Exception {
        var sessions = new ArrayList<MultiMap>();
        var stateless = new ArrayList<MultiMap>();
        var bearer = new ArrayList<MultiMap>();
        for (String token : tokens) {
            sessions.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token)
                    .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                    .add("MCP-Protocol-Version", "2025-06-18").add("Mcp-Session-Id", McpHttp.initialize(url, token)));
            stateless.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token)
                    .add("Content-Type", "application/json").add("Accept", "application/json, text/event-stream")
                    .add("MCP-Protocol-Version", "2026-07-28").add("Mcp-Method", "resources/read")
                    .add("Mcp-Name", AuditedServer.URI));
            bearer.add(MultiMap.caseInsensitiveMultiMap().add("Authorization", "Bearer " + token));
        }
        String meta = "{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":{},"
                + "\"io.modelcontextprotocol/clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}}";
        return List.of(
                new Target("read 2025-06-18", HttpMethod.POST, "/mcp", sessions, readBody(null), "\"contents\"", 0),
                new Target("bearer-only GET", HttpMethod.GET, "/baseline/" + AuditedServer.FILE, bearer, null, null, 1024),
                new Target("read 2026-07-28", HttpMethod.POST, "/mcp", stateless, readBody(meta), "\"contents\"", 0));
    }

    private static List<Target> peerTargets(String url, int sessions) throws Exception {
        var headers = new ArrayList<MultiMap>();
        var http = HttpClient.newHttpClient();
        for (int i = 0; i < sessions; i++) {
            var init = http.send(HttpRequest.newBuilder(URI.create(url + "/mcp"))
                    .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"peer-bench\",\"version\":\"1\"}}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            String session = init.headers().firstValue("Mcp-Session-Id")
                    .orElseThrow(() -> new IllegalStateException("the peer gave no session: " + init.body()));
            http.send(HttpRequest.newBuilder(URI.create(url + "/mcp")).header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream").header("Mcp-Session-Id", session)
                    .header("MCP-Protocol-Version", "2025-06-18")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).build(),
                    HttpResponse.BodyHandlers.discarding());
            headers.add(MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/json")
                    .add("Accept", "application/json, text/event-stream").add("MCP-Protocol-Version", "2025-06-18")
                    .add("Mcp-Session-Id", session));
        }
        return List.of(
                new Target("read 2025-06-18", HttpMethod.POST, "/mcp", headers, readBody(null), "\"contents\"", 0),
                new Target("bare GET", HttpMethod.GET, "/bare/" + AuditedServer.FILE, List.of(MultiMap.caseInsensitiveMultiMap()),
                        null, null, 1024));
    }

    private static List<Target> only(List<String> prefixes, List<Target> targets) {
        return targets.stream().filter(t -> prefixes.stream().anyMatch(t.name()::startsWith)).toList();
    }

    private static Buffer readBody(String meta) {
        return Buffer.buffer("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"resources/read\",\"params\":{"
                + (meta == null ? "" : "\"_meta\":" + meta + ",") + "\"uri\":\"" + AuditedServer.URI + "\"}}");
    }

    private static double peerToReady(PeerProcess peer) throws Exception {
        long t0 = System.nanoTime();
        peer.start();
        if (!ReadyProbe.await(peer.url(), Duration.ofSeconds(60), peer::alive)) {
            throw new IllegalStateException("the peer did not become ready (see " + peer.log() + ")");
        }
        return (System.nanoTime() - t0) / 1e9;
    }
}
