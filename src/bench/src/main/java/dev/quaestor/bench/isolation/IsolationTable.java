package dev.quaestor.bench.isolation;

import java.util.List;

/** The benchmark's one table, and under it what each abuser got and the legitimate client's errors by kind. */
final class IsolationTable {

    private IsolationTable() {
    }

    static void print(List<PhaseResult> phases, double rate) {
        double quietP99 = phases.get(0).legit().ms(99);
        System.out.printf("%nlegitimate client: resources/read of a public 1 KiB file at %.0f/s, open loop; an error is any answer "
                + "but a successful read, or none within 5 s%n", rate);
        String header = String.format("| %-28s | %7s | %8s | %8s | %9s | %17s | %12s | %9s | %8s | %7s | %13s | %8s |",
                "phase", "reads", "p50 ms", "p99 ms", "p99/quiet", "errors", "audit rows/s", "DB growth", "heap max", "threads",
                "DB conns busy", "sessions");
        System.out.println(header);
        System.out.println(header.replaceAll("[^|]", "-"));
        for (PhaseResult p : phases) {
            var r = p.legit();
            double p99 = r.ms(99);
            System.out.printf("| %-28s | %,7d | %8.2f | %8.2f | %9s | %17s | %,12.0f | %5.1f MiB | %4s MiB | %7s | %13s | %,8d |%n",
                    p.name(), r.sent(), r.ms(50), p99, p == phases.get(0) ? "1.00" : String.format("%.2f", p99 / quietP99),
                    String.format("%,d (%.2f%%)", p.errors(), 100.0 * p.errors() / Math.max(1, r.sent())), p.auditRowsPerSecond(),
                    p.databaseGrowthMib(), p.peaks().heapBytes() < 0 ? "n/a" : String.valueOf(p.peaks().heapBytes() >> 20),
                    p.peaks().threads() < 0 ? "n/a" : String.valueOf(p.peaks().threads()),
                    p.peaks().busyConnections() < 0 ? "n/a" : String.valueOf(p.peaks().busyConnections()), p.after().sessions());
        }
        System.out.println("(p50/p99 of the successful reads, from each read's intended start; heap, threads and busy database "
                + "connections: peaks of 1 s samples; sessions: open sessions at the phase's end)");
        System.out.println();
        System.out.println("target: zero errors beside every abuser, p99 within 2x the quiet p99");
        for (PhaseResult p : phases) {
            boolean met = p.errors() == 0 && p.legit().ms(99) <= 2 * quietP99;
            System.out.printf("  %-28s %s%s%n", p.name(), met ? "met" : "NOT MET",
                    p.errors() == 0 ? "" : "; errors " + p.legit().errorSummary() + (p.late() > 0 ? ", later than 5 s: " + p.late() : ""));
        }
        System.out.println();
        System.out.println("what each abuser got from the server:");
        for (PhaseResult p : phases) {
            if (p.abuse() != null) {
                System.out.printf("  %-28s %s%s%n", p.name(), p.abuse(),
                        p.peaks().metricFailures() > 0 ? "; /q/metrics unanswered " + p.peaks().metricFailures() + " times" : "");
            }
        }
    }
}
