package dev.quaestor.bench.isolation;

/**
 * The benchmark's settings: {@code --name value} arguments, each also read from an environment variable (the
 * option's name in capitals with underscores, e.g. {@code PHASE_SECONDS}); an argument wins. {@code --help} lists them.
 */
final class IsolationOptions {

    int phaseSeconds = 60;
    double rate;
    double rateShare = 0.2;
    int warmupSeconds = 30;
    int saturationSeconds = 20;
    int historyRecords = 400_000;
    int exports = 20;
    int verifies = 20;
    int slowBodies = 300;
    int initializeCalls = 3_000;
    int getStreams = 2_000;
    int listens = 40;
    int listenUris = 1_000;
    int largeReads = 20;
    int largeMib = 64;
    int trickleBytesPerSecond = 16 * 1024;
    int listings = 64;
    int archiveFiles = 20_000;
    int bigBodies = 64;
    int batches = 4;
    int settleSeconds = 30;
    int forgeryWorkers = 16;
    int probeWorkers = 16;
    String heap = "256m";
    String only;

    static final String HELP = """
            src/bench/isolation.sh [--option value ...]   (each also from the environment: PHASE_SECONDS=10 ...)
              --phase-seconds S        each phase: the legitimate client alone, then beside each abuser (60)
              --rate R                 the legitimate client's reads/s (default: --rate-share of the audited saturation,
                                       measured here in closed loop, 64 in flight)
              --rate-share F           share of the audited saturation (0.2)
              --warmup-seconds S       closed-loop warm-up of the read path before the saturation (30)
              --saturation-seconds S   the saturation measurement (20)
              --history-records N      records of the signed log written before the phases, beside the server's (400000)
              --exports N              stalled exports (20)
              --verifies N             concurrent verifies (20)
              --slow-bodies N          slow-body sockets (300)
              --initialize-calls N     initialize calls at least (3000; sent at the legitimate rate, or faster if
                                       the phase would otherwise hold fewer)
              --get-streams N          2025-03-26 GET streams (2000)
              --listens N              2026-07-28 listens (40)
              --listen-uris N          URIs each listen names (1000)
              --large-reads N          large reads read slowly (20)
              --large-mib N            the large file, MiB (64)
              --trickle-bytes-per-second N  how fast each slow reader reads (16384)
              --forgery-workers N      senders of refused tokens under forged X-Forwarded-For addresses (16)
              --probe-workers N        senders of denied reads, 32 decoys then 8 probes each round (16)
              --listings N             resources/list in flight, first pages of a mount the lister may see none of (64)
              --archive-files N        files of that mount (20000)
              --big-bodies N           POSTs of 1,000,000-byte bodies in flight (64)
              --batches N              2025-03-26 batches of 50 reads of a 1,000,000-byte file in flight (4)
              --settle-seconds S       after a phase, wait at most this long for the server's database connections
                                       to be idle again; if they are not (or the server exited), restart the server
                                       on the same database and warm it up again before the next phase (30)
              --heap SIZE              server -Xmx (256m; -XX:+UseSerialGC, as a pod with a 1 GiB limit runs)
              --only NAMES             run only the phases whose names contain one of these words, comma-separated
                                       (e.g. exports,listens); the quiet phase always runs
            """;

    static IsolationOptions parse(String[] args) {
        var o = new IsolationOptions();
        for (String name : new String[] {"phase-seconds", "rate", "rate-share", "warmup-seconds", "saturation-seconds",
            "history-records", "exports", "verifies", "slow-bodies", "initialize-calls", "get-streams", "listens", "listen-uris", "large-reads",
            "large-mib", "trickle-bytes-per-second", "listings", "archive-files", "big-bodies", "batches", "settle-seconds", "forgery-workers", "probe-workers", "heap", "only"}) {
            String env = System.getenv(name.toUpperCase().replace('-', '_'));
            if (env != null && !env.isBlank()) {
                o.set(name, env.strip());
            }
        }
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                System.out.print(HELP);
                return null;
            }
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --option value, got " + args[i] + "\n" + HELP);
            }
            o.set(args[i].substring(2), args[++i]);
        }
        if (o.phaseSeconds < 1 || o.rateShare <= 0) {
            throw new IllegalArgumentException("--phase-seconds and --rate-share must be positive");
        }
        return o;
    }

    private void set(String name, String v) {
        switch (name) {
            case "phase-seconds" -> phaseSeconds = Integer.parseInt(v);
            case "rate" -> rate = Double.parseDouble(v);
            case "rate-share" -> rateShare = Double.parseDouble(v);
            case "warmup-seconds" -> warmupSeconds = Integer.parseInt(v);
            case "saturation-seconds" -> saturationSeconds = Integer.parseInt(v);
            case "history-records" -> historyRecords = Integer.parseInt(v);
            case "exports" -> exports = Integer.parseInt(v);
            case "verifies" -> verifies = Integer.parseInt(v);
            case "slow-bodies" -> slowBodies = Integer.parseInt(v);
            case "initialize-calls" -> initializeCalls = Integer.parseInt(v);
            case "get-streams" -> getStreams = Integer.parseInt(v);
            case "listens" -> listens = Integer.parseInt(v);
            case "listen-uris" -> listenUris = Integer.parseInt(v);
            case "large-reads" -> largeReads = Integer.parseInt(v);
            case "large-mib" -> largeMib = Integer.parseInt(v);
            case "trickle-bytes-per-second" -> trickleBytesPerSecond = Integer.parseInt(v);
            case "listings" -> listings = Integer.parseInt(v);
            case "archive-files" -> archiveFiles = Integer.parseInt(v);
            case "big-bodies" -> bigBodies = Integer.parseInt(v);
            case "batches" -> batches = Integer.parseInt(v);
            case "settle-seconds" -> settleSeconds = Integer.parseInt(v);
            case "forgery-workers" -> forgeryWorkers = Integer.parseInt(v);
            case "probe-workers" -> probeWorkers = Integer.parseInt(v);
            case "heap" -> heap = v;
            case "only" -> only = v;
            default -> throw new IllegalArgumentException("unknown option --" + name + "\n" + HELP);
        }
    }
}
