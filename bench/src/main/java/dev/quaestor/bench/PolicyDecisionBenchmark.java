package dev.quaestor.bench;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Conditions;
import dev.quaestor.policy.Effect;
import dev.quaestor.policy.Facts;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.SubjectSet;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
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
 * rules. The rules look like an organisation's: per-department and per-project folders, role
 * and subject grants, globs, ${subject} homes and denies. Queries hit existing rule paths, deep
 * files below them and misses. Sample-time mode reports p50/p99 per decision.
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
    private final Facts facts = new Facts("10.1.2.3", Instant.parse("2026-03-04T10:00:00Z"));
    private int next;

    @Setup(Level.Trial)
    public void build() {
        var rnd = new Random(1234);
        var list = new ArrayList<Rule>(rules);
        for (int i = 0; i < rules; i++) {
            int dept = i % 97;
            String pattern = switch (i % 10) {
                case 0 -> "file:///org/dept-" + dept + "/*/reports/*.md";
                case 1 -> "file:///org/dept-" + dept + "/proj-" + i + "/raw/**";
                case 2 -> "git://repo-" + (i % 500) + "/main/docs/**";
                default -> "file:///org/dept-" + dept + "/proj-" + i + "/**";
            };
            Effect effect = i % 10 == 1 ? Effect.DENY : Effect.ALLOW;
            var subjects = i % 3 == 0 ? new SubjectSet(Set.of(), Set.of(), Set.of("user-" + (i % 1000)), Set.of(), Set.of())
                    : new SubjectSet(Set.of("role-" + (i % 50)), Set.of(), Set.of(), Set.of(), Set.of());
            list.add(new Rule("r" + i, effect, EnumSet.of(Action.LIST, Action.READ), List.of(ResourcePattern.parse(pattern)),
                    subjects, Conditions.NONE, "bench.yaml:" + (i + 1)));
        }
        list.add(new Rule("homes", Effect.ALLOW, EnumSet.allOf(Action.class),
                List.of(ResourcePattern.parse("file:///home/${subject}/**")),
                new SubjectSet(Set.of("*"), Set.of(), Set.of(), Set.of(), Set.of()), Conditions.NONE, "bench.yaml:0"));
        set = new PolicySet("bench", list, List.of(), List.of(), List.of("bench.yaml"));

        uris = new CanonicalUri[4096];
        for (int k = 0; k < uris.length; k++) {
            int i = rnd.nextInt(rules);
            String u = switch (k % 5) {
                case 0 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/reports/q" + k + ".md";
                case 1 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/raw/sample-" + k + ".bin";
                case 2 -> "file:///org/dept-" + (i % 97) + "/proj-" + i + "/a/b/c/d/file-" + k + ".txt";
                case 3 -> "file:///home/user-" + (k % 1000) + "/notes-" + k + ".md";
                default -> "file:///nowhere/" + k;
            };
            uris[k] = UriCanonicalizer.canonicalize(u);
        }
        callers = new Identity[256];
        for (int k = 0; k < callers.length; k++) {
            callers[k] = new Identity("user-" + rnd.nextInt(1000), "client", "acme",
                    new java.util.HashSet<>(List.of("role-" + rnd.nextInt(50), "role-" + rnd.nextInt(50))), Set.of(), Set.of("resources:read"));
        }
    }

    @Benchmark
    public boolean decide() {
        int k = next++;
        return set.decide(callers[k & 255], Action.READ, uris[k & 4095], facts).allowed();
    }
}
