package dev.quaestor.bench.load;

import java.util.ArrayList;
import java.util.List;

/** The harness's command-line options ({@code --help} prints them). */
final class LoadOptions {

    int sessions = 64;
    int subjects = -1;
    int warmup = 30;
    int warmupMax = 120;
    int duration = 20;
    double rate;
    int overloadSeconds = 70;
    int overloadConnections = 1024;
    long boundMs = 5_000;
    long clientTimeoutMs = 30_000;
    long limitPerUser = 100_000;
    String heap = "256m";
    String profile;
    String java;
    boolean aot;
    boolean cds;
    boolean pgWaits;
    boolean saturation = true;
    int hold;
    int restarts = 1;
    final List<String> serverOptions = new ArrayList<>();

    private static final String HELP = """
            bench/load.sh [options]   (all optional)
              --sessions N           concurrent MCP sessions = requests in flight in closed loop = connections (64)
              --subjects N           distinct token subjects, sessions spread over them (= sessions)
              --warmup S             closed-loop warm-up per endpoint, at least S seconds (30: the JIT is still
                                     compiling the read path after 10 s on 2 cores); then on in 5 s slices until
                                     the C2 compiler used under 0.05 cores in one
              --warmup-max S         longest warm-up per endpoint, seconds (120)
              --duration S           each measured phase, seconds (20)
              --rate R               open-loop rate per second (default: 50% of the measured audited saturation)
              --overload-seconds S   open loop at 2x the audited saturation; RSS sampled every 10 s (70; 0 = skip;
                                     300 for the 5-minute soak)
              --overload-connections N  connections the generator may open in overload (1024)
              --bound-ms MS          the server's configured bound a response must not exceed in overload
                                     (quaestor.audit.commit-timeout, 5000)
              --client-timeout-ms MS generator gives up on a response after this (30000)
              --limit-per-user N     per-subject limit in the bench policy, reads/s (100000: exercised, never reached)
              --heap SIZE            server -Xmx (256m)
              --server-opt OPT       extra server JVM option, repeatable (e.g. -Dquarkus.datasource.jdbc.max-size=30);
                                     the server runs -XX:+UseSerialGC, as a pod with the deployment's 1 GiB limit
                                     does, unless one names a collector (e.g. -XX:+UseG1GC)
              --java PATH            the server's java executable (default: the harness's own, JDK 17 here)
              --aot true             JDK 24+ (with --java): the first start is a training run that writes an AOT cache
                                     (-XX:AOTCacheOutput); the measured restart loads it (-XX:AOTCache)
              --cds true             the first start is a training run that writes a dynamic AppCDS archive of every
                                     class it loaded (-XX:ArchiveClassesAtExit, JDK 13+); the restarts map it
                                     (-XX:SharedArchiveFile)
              --saturation false     skip the closed-loop phases (needs --rate): an open-loop run on its own, e.g. to
                                     profile the server at a low rate
              --restarts N           restarts on the migrated database, each timed to ready; the last is put under
                                     load, and the start-up verdict takes their median (1)
              --hold S               keep the server up S seconds after the phases, printing its URL, a token and a
                                     session, to try it by hand (curl); 0 = stop at once (0)
              --profile EVENT        async-profiler in the server (itimer|cpu|wall|alloc|lock), whole run; collapsed
                                     stacks in bench/target/load/profile-load-EVENT.collapsed
              --pg-waits true        sample pg_stat_activity every 2 ms during the audited open loop: where the audit
                                     writer's batch statements wait inside PostgreSQL (WAL sync, extension, CPU...),
                                     all of them and the slow ones apart, plus checkpoint and WAL counters
            """;

    static LoadOptions parse(String[] args) {
        var o = new LoadOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--help") || a.equals("-h")) {
                System.out.print(HELP);
                return null;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(a + " needs a value\n" + HELP);
            }
            String v = args[++i];
            switch (a) {
                case "--sessions" -> o.sessions = Integer.parseInt(v);
                case "--subjects" -> o.subjects = Integer.parseInt(v);
                case "--warmup" -> o.warmup = Integer.parseInt(v);
                case "--warmup-max" -> o.warmupMax = Integer.parseInt(v);
                case "--duration" -> o.duration = Integer.parseInt(v);
                case "--rate" -> o.rate = Double.parseDouble(v);
                case "--overload-seconds" -> o.overloadSeconds = Integer.parseInt(v);
                case "--overload-connections" -> o.overloadConnections = Integer.parseInt(v);
                case "--bound-ms" -> o.boundMs = Long.parseLong(v);
                case "--client-timeout-ms" -> o.clientTimeoutMs = Long.parseLong(v);
                case "--limit-per-user" -> o.limitPerUser = Long.parseLong(v);
                case "--heap" -> o.heap = v;
                case "--server-opt" -> o.serverOptions.add(v);
                case "--profile" -> o.profile = v;
                case "--java" -> o.java = v;
                case "--aot" -> o.aot = Boolean.parseBoolean(v);
                case "--cds" -> o.cds = Boolean.parseBoolean(v);
                case "--pg-waits" -> o.pgWaits = Boolean.parseBoolean(v);
                case "--saturation" -> o.saturation = Boolean.parseBoolean(v);
                case "--hold" -> o.hold = Integer.parseInt(v);
                case "--restarts" -> o.restarts = Math.max(1, Integer.parseInt(v));
                default -> throw new IllegalArgumentException("unknown option " + a + "\n" + HELP);
            }
        }
        if (!o.saturation && o.rate <= 0) {
            throw new IllegalArgumentException("--saturation false needs --rate\n" + HELP);
        }
        if (o.subjects <= 0) {
            o.subjects = o.sessions;
        }
        return o;
    }
}
