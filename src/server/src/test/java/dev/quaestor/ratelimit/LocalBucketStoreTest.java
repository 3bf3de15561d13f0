package dev.quaestor.ratelimit;

import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.BucketConfiguration;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-memory store keeps an idle bucket until it would be full again, however long its refill period. */
class LocalBucketStoreTest {

    private final AtomicLong now = new AtomicLong(Duration.ofDays(3).toNanos());
    private final LocalBucketStore store = new LocalBucketStore(now::get);

    private static BucketConfiguration perPeriod(long capacity, long tokens, Duration period) {
        return BucketConfiguration.builder()
                .addLimit(BandwidthBuilder.builder().capacity(capacity).refillGreedy(tokens, period).build())
                .build();
    }

    private void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void anEmptiedDailyBucketIsNotRecreatedFullAfterAnIdleHour() {
        var oncePerDay = perPeriod(1, 1, Duration.ofDays(1));
        assertTrue(store.consume("alice", oncePerDay).isConsumed());
        assertFalse(store.consume("alice", oncePerDay).isConsumed(), "the bucket is empty");

        advance(Duration.ofMinutes(61));
        assertFalse(store.consume("alice", oncePerDay).isConsumed(), "61 minutes idle: still empty, not recreated full");

        advance(Duration.ofDays(1));
        assertTrue(store.consume("alice", oncePerDay).isConsumed(), "a day on: refilled");
    }

    @Test
    void timeToFullIsTheSlowestLimitInWholeRefills() {
        assertEquals(Duration.ofDays(1).toNanos(), LocalBucketStore.nanosToFull(perPeriod(1000, 1000, Duration.ofDays(1))));
        assertEquals(Duration.ofMinutes(4).toNanos(), LocalBucketStore.nanosToFull(perPeriod(10, 3, Duration.ofMinutes(1))));
        var two = BucketConfiguration.builder()
                .addLimit(BandwidthBuilder.builder().capacity(5).refillGreedy(5, Duration.ofSeconds(1)).build())
                .addLimit(BandwidthBuilder.builder().capacity(100).refillGreedy(50, Duration.ofHours(2)).build())
                .build();
        assertEquals(Duration.ofHours(4).toNanos(), LocalBucketStore.nanosToFull(two));
        assertEquals(Long.MAX_VALUE, LocalBucketStore.nanosToFull(perPeriod(Long.MAX_VALUE / 2, 1, Duration.ofDays(1))));
    }
}
