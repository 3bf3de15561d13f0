package dev.quaestor.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Prints each phase as it ends, every audited figure beside the baseline's, and the targets at the end. */
final class Report {

    private final LoadOptions options;
    private final List<String> verdicts = new ArrayList<>();
    private double auditedSaturation;

    Report(LoadOptions options) {
        this.options = options;
        System.out.printf("Quaestor load harness, %s, %d CPUs, %s%n", LoadBench.now(), ProcStats.cpus(), machine());
        boolean gcChosen = options.serverOptions.stream().anyMatch(opt -> opt.matches("-XX:\\+Use\\w+GC"));
        System.out.printf("server: prod mode, -Xmx%s%s, fresh database, %d sessions over %d subjects, per-user limit %d/s%s%n",
                options.heap, gcChosen ? "" : " -XX:+UseSerialGC (as a 1 GiB pod's JVM picks)", options.sessions,
                options.subjects, options.limitPerUser,
                options.serverOptions.isEmpty() ? "" : ", " + String.join(" ", options.serverOptions));
        System.out.println("latencies in ms (open loop: from each request's intended start); CPU in cores (1.00 = one core busy);"
                + " 'ratio' = audited / baseline in the same run");
    }

    void startup(double firstStart, double seconds, java.util.List<Double> restarts, double cpuSeconds, Map<String, Long> threadTicks,
            long rssKib, double idleCores, java.nio.file.Path java, boolean aot) {
        System.out.printf("server JVM: %s%s%n", java, aot ? " with the AOT cache of a training run (-XX:AOTCache)" : "");
        System.out.printf("first start to /q/health/ready UP (fresh database: includes migrations): %.2f s%n", firstStart);
        System.out.printf("restart to /q/health/ready UP (migrated database, QUAESTOR_MIGRATE_AT_START=false, as a pod starts): %.2f s, using %.2f core-s of CPU; idle RSS %.0f MiB%n",
                seconds, cpuSeconds, rssKib / 1024.0);
        // Threads still alive at ready (a thread that ended, such as Hibernate's start-up thread, is only in the total).
        var startupSeconds = new java.util.HashMap<String, Double>();
        threadTicks.forEach((name, ticks) -> startupSeconds.put(name, ticks * ProcStats.TICK_SECONDS));
        System.out.println("  start-up CPU by thread (core-s): " + busiestFirst(startupSeconds, 6));
        System.out.printf("idle server CPU (5 s with no requests, 2 s after ready): %.3f cores%n", idleCores);
        var sorted = restarts.stream().sorted().toList();
        double median = sorted.size() % 2 == 1 ? sorted.get(sorted.size() / 2)
                : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        if (restarts.size() > 1) {
            System.out.printf("restarts to ready: %s s; median %.2f s%n",
                    restarts.stream().map(r -> String.format("%.2f", r)).toList(), median);
        }
        verdicts.add(verdict(median < 2.0, "start-up to ready %.2f s on a migrated database (%s; target < 2 s; first start with migrations %.2f s)",
                median, restarts.size() > 1 ? "median of " + restarts.size() + " restarts" : "one restart", firstStart));
        verdicts.add(verdict(rssKib / 1024.0 < 300, "idle RSS %.0f MiB (target < 300 MiB)", rssKib / 1024.0));
    }

    void saturation(LoadResult read, LoadResult base) {
        auditedSaturation = read.throughput();
        table("saturation", read, base);
        double share = read.throughput() / base.throughput();
        verdicts.add(verdict(read.throughput() >= 5000 && read.errorCount() == 0,
                "audited saturation %.0f/s with %d errors (target >= 5000/s, zero errors)", read.throughput(), read.errorCount()));
        verdicts.add(verdict(share >= 0.35, "audited / baseline throughput %.0f%% (target >= 35%%)", 100 * share));
        verdicts.add(verdict(read.cpu()[1] < 0.25 * read.cpu()[0] && base.cpu()[1] < 0.5 * base.cpu()[0],
                "generator CPU at saturation %.2f (audited) / %.2f (baseline) cores against the server's %.2f / %.2f "
                        + "(the generator must stay small beside the server)", read.cpu()[1], base.cpu()[1], read.cpu()[0],
                base.cpu()[0]));
    }

    void openLoop(LoadResult read, LoadResult base) {
        table("open loop", read, base);
        System.out.printf("  generator send lag (ms after the intended start): audited p99 %.2f, max %.2f; baseline p99 %.2f, max %.2f%n",
                read.lagMs(99), read.sendLag().getMaxValue() / 1000.0, base.lagMs(99), base.sendLag().getMaxValue() / 1000.0);
        verdicts.add(verdict(read.ms(99) < 15 && read.errorCount() == 0,
                "open loop at %.0f/s: p99 %.2f ms, %d errors (target p99 < 15 ms at 50%% of saturation)",
                read.sent() / read.seconds(), read.ms(99), read.errorCount()));
    }

    void overload(LoadResult read, Map<Integer, Long> rss, Set<String> allowed) {
        table("overload", read, null);
        System.out.printf("  server RSS every 10 s (s=MiB): %s%n", rssSeries(rss));
        // Judged from the moment each request had a connection: at twice a saturation of 10,000/s the one-threaded
        // generator itself falls behind (its requests wait for one of its connections), which is not the server's
        // time; the lag and the count from the intended start are printed beside it.
        System.out.printf("  generator: requests on a connection p50 %.1f / p99 %.1f / max %.1f ms after their intended start; "
                + "%d responses slower than %d ms counted from the intended start%n", read.lagMs(50), read.lagMs(99),
                read.sendLag().getMaxValue() / 1000.0, read.slowerThan(options.boundMs * 1000), options.boundMs);
        System.out.printf("  responses from the moment their request had a connection: p50 %.1f / p99 %.1f / max %.1f ms%n",
                read.fromWire().getValueAtPercentile(50) / 1000.0, read.fromWire().getValueAtPercentile(99) / 1000.0,
                read.fromWire().getMaxValue() / 1000.0);
        long late = read.slowerFromWireThan(options.boundMs * 1000);
        var unexpected = read.errors().keySet().stream().filter(k -> !allowed.contains(k)).toList();
        verdicts.add(verdict(unexpected.isEmpty() && late == 0,
                "overload: answers other than -32005/-32004/429: %s; %d responses slower than %d ms once sent (target: none, none)",
                unexpected.isEmpty() ? "none" : unexpected, late, options.boundMs));
        Long at60 = rss.get(60);
        Long last = rss.isEmpty() ? null : rss.get(rss.keySet().stream().max(Integer::compare).orElseThrow());
        if (at60 != null && options.overloadSeconds >= 120) {
            double growth = (double) last / at60 - 1;
            verdicts.add(verdict(Math.abs(growth) <= 0.10, "overload RSS %.0f MiB at 60 s, %.0f MiB at %d s: %+.1f%% (target within 10%%)",
                    at60 / 1024.0, last / 1024.0, options.overloadSeconds, 100 * growth));
        } else {
            verdicts.add("  n/a   RSS flatness needs --overload-seconds >= 120 (300 for the 5-minute check)");
        }
    }

    double auditedSaturation() {
        return auditedSaturation;
    }

    void summary() {
        System.out.println();
        System.out.println("targets (indicative unless the machine was quiet):");
        verdicts.forEach(System.out::println);
    }

    private static void table(String phase, LoadResult read, LoadResult base) {
        System.out.printf("%n%s: %s%n", phase, read.mode());
        System.out.printf("  %-9s %9s %7s %7s %7s %8s %8s %8s %6s %6s %6s %6s  %s%n", "endpoint", "ok/s", "p50", "p90", "p99",
                "p99.9", "max", "errors", "srvCPU", "genCPU", "allCPU", "RSS", "error kinds");
        row(read);
        if (base != null) {
            row(base);
            System.out.printf("  %-9s %9.2f %7.2f %7.2f %7.2f %8.2f %8.2f %8s %6.2f %6s %6s %6.2f%n", "ratio",
                    read.throughput() / base.throughput(), read.ms(50) / base.ms(50), read.ms(90) / base.ms(90),
                    read.ms(99) / base.ms(99), read.ms(99.9) / base.ms(99.9), read.maxMs() / base.maxMs(), "",
                    read.cpu()[0] / base.cpu()[0], "", "", (double) read.serverRssKib() / base.serverRssKib());
            System.out.printf("  server CPU per 1,000 requests: audited %.3f core-s, baseline %.3f core-s%n",
                    1000 * read.cpu()[0] / read.throughput(), 1000 * base.cpu()[0] / base.throughput());
        }
        for (LoadResult r : base == null ? List.of(read) : List.of(read, base)) {
            // Which threads the server's CPU went to: request workers, event loops, the audit writer, the JIT, GC.
            System.out.println("  server CPU by thread, " + r.target() + " (cores): " + busiestFirst(r.serverThreads(), 7));
        }
    }

    /** The {@code limit} largest values, busiest thread first: "name 0.59, name 0.36, ...". */
    private static String busiestFirst(Map<String, Double> byThread, int limit) {
        return byThread.entrySet().stream().sorted(Map.Entry.<String, Double>comparingByValue().reversed()).limit(limit)
                .map(e -> String.format("%s %.2f", e.getKey(), e.getValue())).collect(Collectors.joining(", "));
    }

    private static void row(LoadResult r) {
        System.out.printf("  %-9s %9.0f %7.2f %7.2f %7.2f %8.2f %8.2f %8d %6.2f %6.2f %6.2f %6.0f  %s%n", r.target(), r.throughput(),
                r.ms(50), r.ms(90), r.ms(99), r.ms(99.9), r.maxMs(), r.errorCount(), r.cpu()[0], r.cpu()[1], r.cpu()[2],
                r.serverRssKib() / 1024.0, r.errorSummary());
    }

    private static String rssSeries(Map<Integer, Long> rss) {
        var b = new StringBuilder();
        rss.forEach((s, kib) -> b.append(s).append('=').append(Math.round(kib / 1024.0)).append(' '));
        return b.toString().trim();
    }

    private static String verdict(boolean pass, String format, Object... args) {
        return (pass ? "  PASS  " : "  FAIL  ") + String.format(format, args);
    }

    private static String machine() {
        try {
            return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name")).findFirst().map(l -> l.substring(l.indexOf(':') + 2)).orElse("?");
        } catch (java.io.IOException e) {
            return "?";
        }
    }
}
