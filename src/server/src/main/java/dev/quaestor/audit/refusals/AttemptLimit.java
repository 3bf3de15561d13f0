package dev.quaestor.audit.refusals;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import java.time.Duration;

/**
 * How many refusals each subject may have recorded one by one: a bucket of {@code limit} refilled over
 * {@code period}, per subject and replica (it bounds what this replica's log is made to write). Each refusal
 * recorded on its own spends a token; once the bucket is empty, the subject's refusals are merged.
 */
final class AttemptLimit {

    private final long limit;
    private final Duration period;
    private final Cache<String, Bucket> buckets;

    AttemptLimit(long limit, Duration period) {
        this.limit = limit;
        this.period = period;
        // An evicted bucket (idle for two periods) would have been full again anyway.
        this.buckets = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(period.multipliedBy(2)).build();
    }

    /** Spends one of the subject's individual records; false once it has none left (merge instead). */
    boolean recordsOnItsOwn(String subject) {
        if (subject == null || limit <= 0) {
            return false;
        }
        return buckets.get(subject, s -> Bucket.builder().addLimit(l -> l.capacity(limit).refillGreedy(limit, period)).build())
                .tryConsume(1);
    }
}
