package dev.quaestor.bench;

import dev.quaestor.policy.Action;

/**
 * Runs the decision benchmark's workload a fixed number of times, for measurements that do not
 * depend on how busy the machine is: run it under {@code valgrind --tool=cachegrind} once with
 * 0 and once with N measured decisions after the same warm-up, and the difference divided by N
 * is instructions and (simulated) cache misses per decision. Usage: RULES WARMUP MEASURED.
 */
public final class PolicyDecisionProbe {

    public static void main(String[] args) {
        var data = new PolicyBenchData(Integer.parseInt(args[0]));
        int warmup = Integer.parseInt(args[1]);
        int measured = Integer.parseInt(args[2]);
        long allowed = run(data, 0, warmup);
        System.out.println("warm-up allowed " + allowed);
        allowed = run(data, warmup, measured);
        System.out.println("measured allowed " + allowed + " of " + measured);
    }

    private static long run(PolicyBenchData data, int from, int count) {
        long allowed = 0;
        for (int k = from; k < from + count; k++) {
            if (data.set.decide(data.callers[k & 255], Action.READ, data.uris[k & 4095], PolicyBenchData.FACTS).allowed()) {
                allowed++;
            }
        }
        return allowed;
    }
}
