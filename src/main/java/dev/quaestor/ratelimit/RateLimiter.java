package dev.quaestor.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.RateLimitRule;
import dev.quaestor.uri.CanonicalUri;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;

/**
 * Token buckets for the policy set's {@code limits:}, held in memory (one replica). A bucket is
 * keyed by the limit's definition as well as its id, so a reload that changes a limit starts
 * fresh buckets for it while unchanged limits keep theirs. Idle buckets are evicted.
 */
@ApplicationScoped
public class RateLimiter {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .maximumSize(1_000_000)
            .expireAfterAccess(Duration.ofHours(1))
            .build();

    public RateCheck check(PolicySet policy, Identity who, String sourceIp, Action action, CanonicalUri uri) {
        List<RateLimitRule> limits = policy.limitsFor(who, action, uri);
        if (limits.isEmpty()) {
            return RateCheck.UNLIMITED;
        }
        RateCheck tightest = null;
        for (RateLimitRule limit : limits) {
            Bucket bucket = buckets.get(bucketKey(limit, who, sourceIp), k -> newBucket(limit));
            ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
            long window = Math.max(1, limit.refillPeriod().toSeconds());
            if (!probe.isConsumed()) {
                // Tokens already taken from earlier limits are not returned: a rejected caller has
                // still spent the attempt, which keeps floods from probing limits for free.
                return new RateCheck(false, limit.id(), limit.capacity(), 0, window,
                        RateCheck.retryAfterSeconds(probe.getNanosToWaitForRefill()));
            }
            if (tightest == null || probe.getRemainingTokens() < tightest.remaining()) {
                tightest = new RateCheck(true, limit.id(), limit.capacity(), probe.getRemainingTokens(), window, 0);
            }
        }
        return tightest;
    }

    private static Bucket newBucket(RateLimitRule limit) {
        return Bucket.builder()
                .addLimit(l -> l.capacity(limit.capacity()).refillGreedy(limit.refillTokens(), limit.refillPeriod()))
                .build();
    }

    private static String bucketKey(RateLimitRule limit, Identity who, String sourceIp) {
        String value = switch (limit.key()) {
            case SUBJECT -> who.subject();
            case CLIENT -> who.client();
            case TENANT -> who.tenant();
            case IP -> sourceIp;
        };
        // Callers without the key's value (no tenant claim, say) share one bucket: stricter, never looser.
        return limit.id() + '\u0000' + limit.capacity() + '/' + limit.refillTokens() + '/' + limit.refillPeriod()
                + '\u0000' + (value == null ? "" : value);
    }
}
