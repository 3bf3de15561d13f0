package dev.quaestor.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;

/**
 * Buckets in this process: right for a single replica, N times too generous behind N replicas.
 * Idle buckets are evicted after an hour, longer than any sensible refill period, so an evicted
 * bucket would have been full again anyway.
 */
final class LocalBucketStore implements BucketStore {

    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .maximumSize(1_000_000)
            .expireAfterAccess(Duration.ofHours(1))
            .executor(Runnable::run) // upkeep on the request's thread: no hand-off to another pool
            .build();

    @Override
    public ConsumptionProbe consume(String key, BucketConfiguration config, long tokens) {
        return buckets.get(key, k -> {
            var builder = Bucket.builder();
            for (Bandwidth b : config.getBandwidths()) {
                builder.addLimit(b);
            }
            return builder.build();
        }).tryConsumeAndReturnRemaining(tokens);
    }

    @Override
    public String name() {
        return "memory";
    }
}
