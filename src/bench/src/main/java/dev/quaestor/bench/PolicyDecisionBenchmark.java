package dev.quaestor.bench;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.uri.CanonicalUri;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One policy decision (identity, read, canonical URI) against sets of 10, 1,000 and 100,000
 * rules ({@link PolicyBenchData}). Sample-time mode reports p50/p99 per decision.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PolicyDecisionBenchmark {

    @Param({"10", "1000", "100000"})
    public int rules;

    private PolicySet set;
    private CanonicalUri[] uris;
    private Identity[] callers;
    private final Facts facts = PolicyBenchData.FACTS;
    private int next;

    @Setup(Level.Trial)
    public void build() {
        var data = new PolicyBenchData(rules);
        set = data.set;
        uris = data.uris;
        callers = data.callers;
    }

    @Benchmark
    public boolean decide() {
        int k = next++;
        return set.decide(callers[k & 255], Action.READ, uris[k & 4095], facts).allowed();
    }
}
