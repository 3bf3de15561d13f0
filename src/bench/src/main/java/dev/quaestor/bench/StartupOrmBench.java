package dev.quaestor.bench;

import dev.quaestor.support.ServerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * Start-up of the packaged server with Hibernate ORM (the console's entities) active and with it switched off
 * ({@code quarkus.hibernate-orm.active=false}), in alternating starts of the same jar on the same migrated
 * database, so both are measured in the same run on the same machine. Each start is timed from process start to
 * the first UP from /q/health/ready. Usage: {@code src/bench/startup-orm.sh [PAIRS [--no-console]]} (default 5 pairs,
 * with the console's OIDC tenant on).
 */
public final class StartupOrmBench {

    private static final String DB = "quaestor_bench_startup";

    public static void main(String[] args) {
        BenchMain.runAndExit(StartupOrmBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        boolean console = args.length < 2 || !args[1].equals("--no-console");
        var env = ProdServerSetup.environment("bench-startup", DB, """
                apiVersion: quaestor/v1
                kind: Policy
                metadata: {name: bench-startup}
                rules:
                  - {id: bench-startup-none, effect: allow, actions: [read], resources: ["test://startup/**"], subjects: {roles: [nobody]}}
                """);
        // As a deployment with the console runs: its OIDC tenant on, against the same issuer.
        env.put("QUAESTOR_CONSOLE_ENABLED", Boolean.toString(console));
        env.put("QUAESTOR_CONSOLE_CLIENT_ID", dev.quaestor.support.TestIssuer.CONSOLE_CLIENT);
        env.put("QUAESTOR_CONSOLE_CLIENT_SECRET", dev.quaestor.support.TestIssuer.CONSOLE_SECRET);
        // Required with the console on in prod (its sign-in redirect URI); nobody signs in here.
        env.put("QUAESTOR_HTTP_PUBLIC_URL", "http://localhost");
        var jvm = List.of("-XX:+UseSerialGC", "-Xmx512m");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // The first start migrates the fresh database; later starts find it migrated, as a pod does.
        try (var server = new ServerProcess("bench-startup", env, jvm, java)) {
            System.out.printf("first start (migrations): %.2f s%n", startToReady(server));
        }
        var podEnv = new HashMap<>(env);
        podEnv.put("QUAESTOR_MIGRATE_AT_START", "false");
        var off = new HashMap<>(podEnv);
        off.put("QUARKUS_HIBERNATE_ORM_ACTIVE", "false");
        off.put("QUAESTOR_REVIEW_ENABLED", "false");
        var with = new ArrayList<Double>();
        var without = new ArrayList<Double>();
        for (int i = 0; i < pairs; i++) {
            // Alternate which goes first, so a machine growing busier or quieter does not favour one.
            boolean ormFirst = i % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean orm = ormFirst == (k == 0);
                try (var server = new ServerProcess("bench-startup", orm ? podEnv : off, jvm, java)) {
                    double s = startToReady(server);
                    (orm ? with : without).add(s);
                    System.out.printf("pair %d: ORM %s: %.2f s%n", i + 1, orm ? "active  " : "inactive", s);
                }
            }
        }
        System.out.printf("ORM active:   %s, median %.2f s%n", with, median(with));
        System.out.printf("ORM inactive: %s, median %.2f s%n", without, median(without));
    }

    static double median(List<Double> values) {
        var v = new ArrayList<>(values);
        v.sort(null);
        int n = v.size();
        return n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    private static double startToReady(ServerProcess server) throws Exception {
        long t0 = System.nanoTime();
        server.start();
        var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        var req = HttpRequest.newBuilder(URI.create(server.url() + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (http.send(req, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - t0) / 1e9;
                }
            } catch (java.io.IOException notYet) {
                // not listening yet
            }
            Thread.sleep(10);
        }
        server.awaitReady(Duration.ofSeconds(1));
        return (System.nanoTime() - t0) / 1e9;
    }
}
