package dev.quaestor.bench.ratelimit;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicyLoader;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.ratelimit.RateLimitConfig;
import dev.quaestor.ratelimit.RateLimiter;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The latency the limiter adds to one request: two limits apply (per user and per tenant, as in
 * the samples), callers rotate over 10,000 subjects in 50 tenants, and buckets are large enough
 * that every check admits. Backends: memory, and Redis at redis://127.0.0.1:6379 (override with
 * -Dquaestor.bench.redis=...). Sample-time mode reports p50/p99 per check.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
public class RateLimiterBenchmark {

    @Param({"memory", "redis"})
    public String backend;

    private RateLimiter limiter;
    private PolicySet policy;
    private Identity[] callers;
    private final CanonicalUri uri = UriCanonicalizer.canonicalize("file:///docs/handbook/welcome.md");
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        policy = PolicyLoader.parse(List.of(Map.entry("limits.yaml", """
                apiVersion: quaestor/v1
                kind: Policy
                limits:
                  - id: per-user
                    key: subject
                    capacity: 1000000000
                    refill: {tokens: 1000000000, period: 1m}
                    resources: ["**"]
                  - id: per-tenant
                    key: tenant
                    capacity: 1000000000
                    refill: {tokens: 1000000000, period: 1m}
                    resources: ["file:///docs/**"]
                """)), new ArrayList<>());
        callers = new Identity[10_000];
        for (int i = 0; i < callers.length; i++) {
            callers[i] = new Identity("user-" + i, "agent", "tenant-" + (i % 50), Set.of("clinician"), Set.of(), Set.of());
        }
        String url = System.getProperty("quaestor.bench.redis", "redis://127.0.0.1:6379");
        limiter = new RateLimiter(config(backend.equals("redis") ? RateLimitConfig.Backend.REDIS : RateLimitConfig.Backend.MEMORY,
                url), new SimpleMeterRegistry());
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        limiter.close();
    }

    /** The limiter's settings: {@code backend}, and Redis at {@code url} with the server's timeout and its own key prefix. */
    private static RateLimitConfig config(RateLimitConfig.Backend backend, String url) {
        var redis = new RateLimitConfig.Redis() {
            @Override
            public String url() {
                return url;
            }

            @Override
            public Duration timeout() {
                return Duration.ofMillis(250);
            }

            @Override
            public String keyPrefix() {
                return "quaestor-bench:";
            }
        };
        return new RateLimitConfig() {
            @Override
            public Backend backend() {
                return backend;
            }

            @Override
            public Redis redis() {
                return redis;
            }
        };
    }

    @Benchmark
    public boolean check() {
        Identity who = callers[next++ % callers.length];
        RateCheck c = limiter.check(policy, who, "10.1.2.3", Action.READ, uri);
        if (!c.allowed()) {
            throw new IllegalStateException("the benchmark's buckets never run dry");
        }
        return c.allowed();
    }
}
