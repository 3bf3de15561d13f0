package dev.quaestor.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TimeMeter;
import java.time.Duration;

/**
 * Buckets in this process: right for a single replica, N times too generous behind N replicas.
 *
 * <p>An idle bucket is dropped once it would be full again, as in Redis: its time to refill from empty to full (the
 * slowest of its limits) plus {@link #MARGIN}, counted from its last use, so a recreated bucket is never more generous
 * than the one dropped, whatever the refill period ({@code 1d} included).
 *
 * <p>Memory is bounded at {@link #MAX_BUCKETS} buckets. Past that, Caffeine drops the buckets it judges least likely to
 * be used again, full or not, and a caller whose bucket was dropped early starts again from a full one: only when more
 * than that many keys (subjects, clients, tenants, addresses) are live at once.
 */
final class LocalBucketStore implements BucketStore {

    static final long MAX_BUCKETS = 1_000_000;

    /** Kept past the time to refill, as Redis keeps its buckets 10 s past theirs. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    /** A bucket and how long it must be kept after each use. */
    private record Entry(Bucket bucket, long keepNanos) {
    }

    private final Cache<String, Entry> buckets;
    private final TimeMeter time;

    LocalBucketStore() {
        this(Ticker.systemTicker());
    }

    /** With {@code ticker} as the one clock of the buckets' refill and their expiry. */
    LocalBucketStore(Ticker ticker) {
        this.time = new TimeMeter() {
            @Override
            public long currentTimeNanos() {
                return ticker.read();
            }

            @Override
            public boolean isWallClockBased() {
                return false;
            }
        };
        this.buckets = Caffeine.newBuilder()
                .maximumSize(MAX_BUCKETS)
                .expireAfter(Expiry.<String, Entry>accessing((key, entry) -> Duration.ofNanos(entry.keepNanos())))
                .ticker(ticker)
                .executor(Runnable::run) // upkeep on the request's thread: no hand-off to another pool
                .build();
    }

    @Override
    public ConsumptionProbe consume(String key, BucketConfiguration config, long tokens) {
        return buckets.get(key, k -> {
            var builder = Bucket.builder().withCustomTimePrecision(time);
            for (Bandwidth b : config.getBandwidths()) {
                builder.addLimit(b);
            }
            return new Entry(builder.build(), saturatedAdd(nanosToFull(config), MARGIN.toNanos()));
        }).bucket().tryConsumeAndReturnRemaining(tokens);
    }

    /** The longest any of the limits takes to refill from empty to full, whole refills counted (never less). */
    static long nanosToFull(BucketConfiguration config) {
        long longest = 0;
        for (Bandwidth b : config.getBandwidths()) {
            long refills = b.getCapacity() / b.getRefillTokens() + (b.getCapacity() % b.getRefillTokens() == 0 ? 0 : 1);
            long period = b.getRefillPeriodNanos();
            longest = Math.max(longest, refills > Long.MAX_VALUE / period ? Long.MAX_VALUE : refills * period);
        }
        return longest;
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    @Override
    public String name() {
        return "memory";
    }
}
