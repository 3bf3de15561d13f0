package dev.quaestor.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.util.Statistics;

/**
 * The 100,000-rule / 10-rule p99 ratio of {@link PolicyDecisionBenchmark}, measured in interleaved
 * pairs. One JMH run measures the sizes one after the other, and on a shared VM the machine drifts
 * between them: the 10-rule p99 alone has moved from 0.15 to 0.31 µs between runs. Here each pair
 * runs both sizes back to back, in ABBA order (10 then 100,000, then 100,000 then 10, ...), so drift
 * falls on both sides alike; the ratio is taken per pair and the median of the pairs is reported
 * beside every run's figures. Usage: PAIRS (default 4). About 50 s per pair.
 */
public final class PolicyRatioBench {

    private static final String SMALL = "10";
    private static final String LARGE = "100000";

    public static void main(String[] args) {
        BenchMain.runAndExit(PolicyRatioBench::run, args);
    }

    private static void run(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        System.out.printf("policy decision p99, %s vs %s rules, %d ABBA pairs, %s%n", SMALL, LARGE, pairs,
                java.time.Instant.now());
        System.out.printf("%-5s %-8s %9s %9s %9s %9s%n", "pair", "rules", "p50 µs", "p90 µs", "p99 µs", "ratio");
        var ratios = new ArrayList<Double>();
        double worstLargeP99 = 0;
        for (int p = 1; p <= pairs; p++) {
            List<String> order = p % 2 == 1 ? List.of(SMALL, LARGE) : List.of(LARGE, SMALL);
            double smallP99 = 0;
            double largeP99 = 0;
            for (String rules : order) {
                Statistics s = measure(rules);
                double p99 = s.getPercentile(99);
                System.out.printf("%-5d %-8s %9.3f %9.3f %9.3f%n", p, rules, s.getPercentile(50), s.getPercentile(90), p99);
                if (rules.equals(SMALL)) {
                    smallP99 = p99;
                } else {
                    largeP99 = p99;
                }
            }
            double ratio = largeP99 / smallP99;
            ratios.add(ratio);
            worstLargeP99 = Math.max(worstLargeP99, largeP99);
            System.out.printf("%-5d %-8s %9s %9s %9s %8.2fx%n", p, "", "", "", "", ratio);
        }
        double[] sorted = ratios.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        double median = sorted.length % 2 == 1 ? sorted[sorted.length / 2]
                : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        System.out.printf("per-pair ratios %s; median %.2fx%n", Arrays.toString(Arrays.stream(sorted)
                .mapToObj(r -> String.format("%.2f", r)).toArray()), median);
        System.out.printf("%s  100,000-rule p99 / 10-rule p99, median of %d pairs: %.2fx (target <= 3x)%n",
                median <= 3.0 ? "PASS" : "FAIL", pairs, median);
        System.out.printf("%s  worst 100,000-rule p99 %.3f µs (target < 20 µs)%n", worstLargeP99 < 20 ? "PASS" : "FAIL",
                worstLargeP99);
    }

    /** One JMH run of the decision benchmark at one size, with the benchmark's own fork, warm-up and measurement. */
    private static Statistics measure(String rules) throws Exception {
        var options = new OptionsBuilder()
                .include(PolicyDecisionBenchmark.class.getName() + ".decide")
                .param("rules", rules)
                .verbosity(VerboseMode.SILENT)
                .build();
        RunResult result = new Runner(options).runSingle();
        BenchmarkParams params = result.getParams();
        if (!params.getParam("rules").equals(rules)) {
            throw new IllegalStateException("JMH ran rules=" + params.getParam("rules") + ", not " + rules);
        }
        return result.getPrimaryResult().getStatistics();
    }
}
