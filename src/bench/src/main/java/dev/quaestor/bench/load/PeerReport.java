package dev.quaestor.bench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** {@link PeerBench}'s side-by-side table, its ratios and its targets. */
final class PeerReport {

    private PeerReport() {
    }

    static void print(List<PeerBench.Row> rows, List<double[]> startQ, List<double[]> startP, List<double[]> startCds, long idleRssKib,
            int connections) {
        double qStart = median(startQ, 0), qCpu = median(startQ, 1), pStart = median(startP, 0), pCpu = median(startP, 1);
        System.out.printf("%n## Start-up to ready (median of %d, alternating)%n%n", startQ.size());
        System.out.println("| server | seconds | core-s |");
        System.out.println("|---|---|---|");
        System.out.printf("| Quaestor (migrated database) | %.2f | %.2f |%n", qStart, qCpu);
        if (!startCds.isEmpty()) {
            System.out.printf("| Quaestor with AppCDS | %.2f | %.2f |%n", median(startCds, 0), median(startCds, 1));
        }
        System.out.printf("| quarkus-mcp-server (peer) | %.2f | %.2f |%n", pStart, pCpu);
        System.out.printf("%nQuaestor / peer: %.2f× the time, %.2f× the CPU; Quaestor's idle RSS %d MiB%n", qStart / pStart,
                qCpu / pCpu, idleRssKib / 1024);

        System.out.printf("%n## Closed loops%n%n");
        System.out.println("| round | server | endpoint | load | answers/s | server core-s per 1,000 | PostgreSQL core-s per 1,000 | p99 ms | errors |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        for (var r : rows) {
            System.out.printf("| %d | %s | %s | %s | %,.0f | %.3f | %.3f | %.2f | %s |%n", r.round(), r.server(), r.endpoint(), r.load(),
                    r.result().throughput(), r.cpuPerThousand(), r.pgPerThousand(), r.result().ms(99), r.result().errorSummary());
        }

        String at = connections + " connections";
        System.out.printf("%n## Ratios and targets (at %s)%n%n", at);
        var checks = new ArrayList<String>();
        checks.add(check("restart to ready ≤ 2.0 s", qStart <= 2.0, "%.2f s", qStart));
        checks.add(check("restart to ready ≤ 3.0 core-s", qCpu <= 3.0, "%.2f core-s", qCpu));
        if (!startCds.isEmpty()) {
            checks.add(check("restart to ready with AppCDS ≤ 1.5 s", median(startCds, 0) <= 1.5, "%.2f s", median(startCds, 0)));
        }
        checks.add(check("idle RSS < 300 MiB", idleRssKib < 300 * 1024, "%d MiB", idleRssKib / 1024));
        int rounds = rows.stream().mapToInt(PeerBench.Row::round).max().orElse(0);
        for (int round = 1; round <= rounds; round++) {
            var audited = find(rows, round, "Quaestor", "read 2025-06-18", at);
            var peerRead = find(rows, round, "peer", "read 2025-06-18", at);
            var bearer = find(rows, round, "Quaestor", "bearer-only GET", at);
            var bare = find(rows, round, "peer", "bare GET", at);
            var first = rows.stream().filter(r -> r.round() == 1 && r.load().startsWith("first")).findFirst();
            var open = rows.stream().filter(r -> r.round() == 1 && r.load().startsWith("open loop")).findFirst();
            if (audited.isPresent() && peerRead.isPresent()) {
                System.out.printf("round %d: audited throughput / peer's: %.2f (%,.0f against %,.0f/s)%n", round,
                        audited.get().result().throughput() / peerRead.get().result().throughput(),
                        audited.get().result().throughput(), peerRead.get().result().throughput());
                checks.add(check("round " + round + ": server CPU per 1,000 audited reads ≤ 0.12 core-s",
                        audited.get().cpuPerThousand() <= 0.12, "%.3f core-s (PostgreSQL %.3f)", audited.get().cpuPerThousand(),
                        audited.get().pgPerThousand()));
            }
            if (bearer.isPresent() && bare.isPresent()) {
                double ratio = bearer.get().cpuPerThousand() / bare.get().cpuPerThousand();
                checks.add(check("round " + round + ": bearer-only CPU ≤ 1.5× a bare GET's", ratio <= 1.5, "%.2f× (%.3f against %.3f)",
                        ratio, bearer.get().cpuPerThousand(), bare.get().cpuPerThousand()));
            }
            if (round == 1 && first.isPresent() && audited.isPresent()) {
                System.out.printf("CPU per audited read in the first seconds after ready: %.3f ms, warm: %.3f ms%n",
                        first.get().cpuPerThousand(), audited.get().cpuPerThousand());
            }
            if (round == 1 && open.isPresent()) {
                checks.add(check("p99 at half of the audited saturation < 15 ms", open.get().result().ms(99) < 15, "%.2f ms at %s",
                        open.get().result().ms(99), open.get().load()));
            }
        }
        System.out.println();
        checks.forEach(System.out::println);
    }

    private static Optional<PeerBench.Row> find(List<PeerBench.Row> rows, int round, String server, String endpoint, String load) {
        return rows.stream().filter(r -> r.round() == round && r.server().equals(server) && r.endpoint().equals(endpoint)
                && r.load().equals(load)).findFirst();
    }

    private static String check(String target, boolean met, String format, Object... figures) {
        return String.format("%-70s %s  %s", target, String.format(format, figures), met ? "MET" : "NOT MET");
    }

    private static double median(List<double[]> values, int index) {
        double[] v = values.stream().mapToDouble(a -> a[index]).sorted().toArray();
        return v.length == 0 ? Double.NaN : v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
