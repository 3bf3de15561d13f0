package dev.quaestor.ratelimit;

import dev.quaestor.identity.AddressBlock;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.RateLimitRule;
import dev.quaestor.uri.CanonicalUri;
import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Applies the policy set's {@code limits:} to one request. Every applicable limit must admit it;
 * a {@code shadow} limit is measured but only noted, and a limit whose store cannot answer
 * follows its {@code fail} mode. A bucket is named by the limit's definition as well as its id,
 * so a reload that changes a limit starts fresh buckets for it while unchanged limits keep theirs.
 */
@ApplicationScoped
public class RateLimiter {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class);

    private final BucketStore store;
    private final MeterRegistry metrics;
    private final Timer latency;
    private final ConcurrentHashMap<String, Counter> counters = new ConcurrentHashMap<>();

    /** Public: a limiter is made outside the container too (the rate-limit benchmark makes one per backend). */
    @Inject
    public RateLimiter(RateLimitConfig config, MeterRegistry metrics) {
        this(config.backend() == RateLimitConfig.Backend.REDIS ? new RedisBucketStore(config.redis()) : new LocalBucketStore(),
                metrics);
    }

    RateLimiter(BucketStore store, MeterRegistry metrics) {
        this.store = store;
        this.metrics = metrics;
        this.latency = Timer.builder("quaestor.ratelimit.latency").description("Time to check a request's limits")
                .tag("backend", store.name()).register(metrics);
    }

    /**
     * Takes one token from every limit that applies.
     *
     * @throws RateLimitUnavailableException when a {@code fail: closed} limit's store cannot answer
     */
    public RateCheck check(PolicySet policy, Identity who, String sourceIp, Action action, CanonicalUri uri) {
        return check(policy, who, sourceIp, action, uri, 1);
    }

    /**
     * Takes {@code tokens} from every limit that applies (a request that asks for several things pays for each), all
     * or none per limit: a bucket holding fewer rejects the request and keeps what it holds.
     *
     * @throws RateLimitUnavailableException when a {@code fail: closed} limit's store cannot answer
     */
    public RateCheck check(PolicySet policy, Identity who, String sourceIp, Action action, CanonicalUri uri, int tokens) {
        List<RateLimitRule> limits = policy.limitsFor(who, action, uri);
        if (limits.isEmpty()) {
            return RateCheck.UNLIMITED;
        }
        long start = System.nanoTime();
        try {
            return checkAll(limits, who, sourceIp, Math.max(1, tokens));
        } finally {
            latency.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    private RateCheck checkAll(List<RateLimitRule> limits, Identity who, String sourceIp, int tokens) {
        List<String> notes = List.of();
        RateCheck tightest = null;
        for (RateLimitRule limit : limits) {
            ConsumptionProbe probe;
            try {
                probe = store.consume(bucketKey(limit, who, sourceIp), configuration(limit), tokens);
            } catch (BucketStoreUnavailableException e) {
                if (limit.fail() == RateLimitRule.Fail.CLOSED) {
                    count(limit, "unavailable-closed");
                    throw new RateLimitUnavailableException(limit.id(), e);
                }
                count(limit, "unavailable-open");
                notes = add(notes, "limit " + limit.id() + " admitted unchecked (fail: open, " + store.name() + " unavailable)");
                continue;
            }
            long window = Math.max(1, limit.refillPeriod().toSeconds());
            if (!probe.isConsumed()) {
                if (limit.shadow()) {
                    count(limit, "shadow-rejected");
                    LOG.infof("shadow limit %s would reject %s", limit.id(), who.subject());
                    notes = add(notes, "shadow limit " + limit.id() + " would reject");
                    continue;
                }
                count(limit, "rejected");
                // Tokens already taken from earlier limits are not returned: a rejected caller has
                // still spent the attempt, which keeps floods from probing limits for free.
                return new RateCheck(false, limit.id(), limit.capacity(), 0, window,
                        RateCheck.retryAfterSeconds(probe.getNanosToWaitForRefill()), notes);
            }
            count(limit, "admitted");
            if (!limit.shadow() && (tightest == null || probe.getRemainingTokens() < tightest.remaining())) {
                tightest = new RateCheck(true, limit.id(), limit.capacity(), probe.getRemainingTokens(), window, 0, List.of());
            }
        }
        if (tightest == null) {
            return new RateCheck(true, null, 0, 0, 0, 0, notes);
        }
        return notes.isEmpty() ? tightest : new RateCheck(true, tightest.limitId(), tightest.capacity(),
                tightest.remaining(), tightest.windowSeconds(), 0, notes);
    }

    private static List<String> add(List<String> notes, String note) {
        var out = new ArrayList<>(notes);
        out.add(note);
        return out;
    }

    private void count(RateLimitRule limit, String result) {
        // Limit ids come from the policy files, so the label set stays small.
        counters.computeIfAbsent(limit.id() + '\u0000' + result, k -> Counter.builder("quaestor.ratelimit.decisions")
                .description("Rate-limit checks by limit and result")
                .tag("limit", limit.id()).tag("result", result).register(metrics)).increment();
    }

    private static BucketConfiguration configuration(RateLimitRule limit) {
        return BucketConfiguration.builder()
                .addLimit(BandwidthBuilder.builder().capacity(limit.capacity())
                        .refillGreedy(limit.refillTokens(), limit.refillPeriod()).build())
                .build();
    }

    static String bucketKey(RateLimitRule limit, Identity who, String sourceIp) {
        String value = switch (limit.key()) {
            case SUBJECT -> who.subject();
            case CLIENT -> who.client();
            case TENANT -> who.tenant();
            case IP -> AddressBlock.of(sourceIp); // an IPv6 sender by its /64, as every per-address budget counts it
        };
        // Callers without the key's value (no tenant claim, say) share one bucket: stricter, never looser.
        return limit.bucketDefinition() + '\u0000' + (value == null ? "" : value);
    }

    /** Closes the bucket store's connections (Redis); the container calls it, and whoever made the limiter otherwise. */
    @PreDestroy
    public void close() throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }
}
