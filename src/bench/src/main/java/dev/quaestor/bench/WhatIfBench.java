package dev.quaestor.bench;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Decision;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.whatif.Fact;
import dev.quaestor.policy.whatif.FactsFile;
import dev.quaestor.policy.whatif.Replay;
import dev.quaestor.policy.whatif.ReportBuilder;
import dev.quaestor.policy.whatif.WhatIfReport;
import dev.quaestor.policy.whatif.Window;
import dev.quaestor.uri.UriCanonicalizer;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * What-if over a month of recorded decisions: a synthetic history of RECORDS requests (default 1,000,000) made by
 * 2,000 callers against the sample policies, each decided by the sample set as the server would have decided it
 * (a caller's token holds the scope or not), grouped into a facts export as {@code GET /audit/facts} writes it;
 * then, three times in one JVM, the export read and replayed through the samples and the worked example's proposal
 * ({@code deploy/examples/what-if/clinical-trials.yaml}), with every fact checked under its recorded revision.
 * Prints records, distinct facts, seconds, and the mismatches (must be 0). Usage: [RECORDS] [FACTS-FILE] [PROPOSED-DIR]
 * (the export and the proposed set are left there for {@code whatif-bench.sh} to time the command on them, each run
 * in a fresh JVM).
 *
 * <p>The traffic comes in sessions: a caller, in one hour, from its address, 25 requests over 4 URIs of its working
 * set, and one session in 20 lists resources. So one fact stands for several requests, as with real agents.
 */
public final class WhatIfBench {

    private static final Instant START = Instant.parse("2026-10-30T00:00:00Z");
    private static final int HOURS = 30 * 24;
    private static final int CALLERS = 2_000;
    private static final int PER_SESSION = 25;

    public static void main(String[] args) {
        BenchMain.runAndExit(WhatIfBench::run, args);
    }

    private record Caller(String subject, String tenant, Set<String> roles, String ip, List<String> uris) {
    }

    private record Key(String subject, String tenant, List<String> roles, String action, String uri, String ip, Instant hour,
            String decision) {
    }

    private static void run(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        Path file = args.length > 1 ? Path.of(args[1]) : Files.createTempFile("quaestor-facts", ".jsonl");
        Path top = Path.of("").toAbsolutePath();
        PolicySet current = PolicyLoader.load(top.resolve("policies"));
        Path proposedDir = args.length > 2 ? Files.createDirectories(Path.of(args[2])) : Files.createTempDirectory("quaestor-proposed");
        try (var s = Files.list(top.resolve("policies"))) {
            for (Path p : s.toList()) {
                Files.copy(p, proposedDir.resolve(p.getFileName()));
            }
        }
        Files.copy(top.resolve("deploy/examples/what-if/clinical-trials.yaml"), proposedDir.resolve("clinical-trials.yaml"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        PolicySet proposed = PolicyLoader.load(proposedDir);

        long t0 = System.nanoTime();
        Map<Key, long[]> facts = history(current, records);
        write(file, facts, current.revision());
        System.out.printf("what-if benchmark, %s: %,d recorded decisions made into %,d distinct facts (%,d bytes) in %.1f s%n",
                Instant.now(), records, facts.size(), Files.size(file), (System.nanoTime() - t0) / 1e9);
        for (int run = 1; run <= 3; run++) {
            long start = System.nanoTime();
            long cpuStart = cpu();
            var read = new ArrayList<Fact>();
            try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                FactsFile.read(in, read::add);
            }
            long parsed = System.nanoTime();
            WhatIfReport r = ReportBuilder.replay(new Replay(current, proposed, rev -> null), read,
                    new Window(START, START.plus(Duration.ofHours(HOURS))), 5, 2);
            long end = System.nanoTime();
            System.out.printf("run %d: %,d records, %,d distinct facts replayed in %.2f s, %.2f s of CPU (reading the export"
                    + " %.2f s, replay %.2f s); gained %,d requests, lost %,d, not judged %,d, listings %,d; checked under their revision"
                    + " %,d, mismatches %,d%n", run, r.summary().records(), r.summary().facts(), (end - start) / 1e9, (cpu() - cpuStart) / 1e9,
                    (parsed - start) / 1e9, (end - parsed) / 1e9, r.gained().stream().mapToLong(WhatIfReport.Row::requests).sum(),
                    r.lost().stream().mapToLong(WhatIfReport.Row::requests).sum(),
                    r.notJudged().stream().mapToLong(WhatIfReport.Undecided::requests).sum(), r.summary().listingRecords(),
                    r.check().records(), r.check().mismatched());
            if (r.check().mismatched() != 0) {
                throw new IllegalStateException("replayed decisions differ from the recorded ones: " + r.check().mismatches());
            }
        }
    }

    /** CPU time of the whole process: on a shared machine, wall time also counts other processes' turns. */
    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** The requests of the month, each decided by {@code set}, grouped as the facts export groups them. */
    private static Map<Key, long[]> history(PolicySet set, long records) {
        var rnd = new Random(42);
        var callers = new ArrayList<Caller>();
        String[] tenants = {"acme", "globex", null};
        for (int i = 0; i < CALLERS; i++) {
            String subject = "user" + i;
            int kind = rnd.nextInt(100);
            Set<String> roles = kind < 40 ? Set.of("clinician") : kind < 60 ? Set.of("principal-investigator")
                    : kind < 90 ? Set.of("analyst") : kind < 95 ? Set.of("safety-officer-oncall") : Set.of();
            String tenant = tenants[rnd.nextInt(3)];
            String ip = kind >= 90 && kind < 95 && rnd.nextBoolean() ? "203.0.113." + rnd.nextInt(255)
                    : "10." + rnd.nextInt(255) + "." + rnd.nextInt(255) + "." + (1 + rnd.nextInt(254));
            var uris = new ArrayList<String>();
            for (int u = 0; u < 8; u++) {
                uris.add(uri(rnd, subject, tenant));
            }
            callers.add(new Caller(subject, tenant, roles, ip, uris));
        }
        var out = new HashMap<Key, long[]>();
        long made = 0;
        while (made < records) {
            Caller c = callers.get(rnd.nextInt(CALLERS));
            Instant hour = START.plus(Duration.ofHours(rnd.nextInt(HOURS)));
            boolean scoped = rnd.nextInt(10) != 0;
            var who = new Identity(c.subject(), "assistant", c.tenant(), c.roles(), Set.of(),
                    scoped ? Set.of("resources:read") : Set.of());
            List<String> roles = List.copyOf(new java.util.TreeSet<>(c.roles()));
            if (rnd.nextInt(20) == 0) {
                out.computeIfAbsent(new Key(c.subject(), c.tenant(), roles, "list", null, c.ip(), hour, "FILTER"),
                        k -> new long[1])[0]++;
                made++;
            }
            for (int i = 0; i < PER_SESSION && made < records; i++) {
                String uri = c.uris().get(rnd.nextInt(4));
                Instant at = hour.plusSeconds(rnd.nextInt(3600));
                Decision d = set.decide(who, Action.READ, UriCanonicalizer.canonicalize(uri), new Facts(c.ip(), at));
                out.computeIfAbsent(new Key(c.subject(), c.tenant(), roles, "read", uri, c.ip(), hour,
                        d.allowed() ? "ALLOW" : "DENY"), k -> new long[1])[0]++;
                made++;
            }
        }
        return out;
    }

    private static String uri(Random rnd, String subject, String tenant) {
        int trial = rnd.nextInt(20);
        return switch (rnd.nextInt(7)) {
            case 0 -> "file:///docs/trials/onco-" + (700 + trial) + "/summary.md";
            case 1 -> "file:///docs/trials/onco-" + (700 + trial) + "/protocol.md";
            case 2 -> "file:///docs/trials/onco-" + (700 + trial) + "/raw/sample-00" + (1 + rnd.nextInt(3)) + ".bin";
            case 3 -> "file:///docs/handbook/page-" + rnd.nextInt(30) + ".md";
            case 4 -> "file:///docs/home/" + (rnd.nextBoolean() ? subject : "user" + rnd.nextInt(CALLERS)) + "/notes.md";
            case 5 -> "file:///docs/tenants/" + (tenant == null || rnd.nextBoolean() ? "acme" : tenant) + "/report.md";
            default -> "db://records/patients/" + rnd.nextInt(500);
        };
    }

    private static void write(Path file, Map<Key, long[]> facts, String revision) throws Exception {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            FactsFile.writeHeader(w, START, START.plus(Duration.ofHours(HOURS)));
            for (var e : facts.entrySet()) {
                Key k = e.getKey();
                FactsFile.write(w, new Fact(k.subject(), "assistant", k.tenant(), k.roles(), k.action(), k.uri(), k.ip(), k.hour(),
                        revision, k.decision(), e.getValue()[0], List.of()));
            }
        }
    }
}
