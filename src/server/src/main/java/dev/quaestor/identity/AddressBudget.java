package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.quaestor.identity.AddressBlock;
import io.github.bucket4j.Bucket;
import java.time.Duration;

/**
 * How many records requests without a verified caller may have this replica write, per source address and in total,
 * spent before each record is written (never after it commits, which concurrent requests would all pass). An
 * address's requests are recorded one by one while both its bucket ({@code capacity}) and the total one
 * ({@code total-capacity}) have a token; past it they are counted into summaries, and opening an address's own
 * summary spends a token of the total; once the total is spent, the requests of every address share one summary per
 * window. An address is counted by its block ({@link AddressBlock}: an IPv6 address by its /64), so a sender cannot
 * take a fresh budget by moving within its own network. Refused authentications have one ({@link UnauthenticatedThrottle}), reads of the published key another.
 */
public final class AddressBudget {

    private final long capacity;
    private final Duration period;
    private final Cache<String, Bucket> perAddress;
    private final Bucket total;

    public AddressBudget(long capacity, long totalCapacity, Duration period) {
        this.capacity = capacity;
        this.period = period;
        // An evicted bucket (idle for two periods) would have been full again anyway.
        this.perAddress = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(period.multipliedBy(2)).build();
        this.total = Bucket.builder().addLimit(l -> l.capacity(totalCapacity).refillGreedy(totalCapacity, period)).build();
    }

    /** Whether the address, or every address together, has no record left (the throttle then turns requests away). */
    boolean spent(String address) {
        return bucket(address).getAvailableTokens() <= 0 || total.getAvailableTokens() <= 0;
    }

    /** Spends one record of the address and of the total; false (nothing spent) if either has none left. */
    public boolean spendRecord(String address) {
        Bucket own = bucket(address);
        if (!own.tryConsume(1)) {
            return false;
        }
        if (total.tryConsume(1)) {
            return true;
        }
        own.addTokens(1);
        return false;
    }

    /** Spends one record of the total for an address's summary of its own; false if none is left. */
    public boolean spendSummary() {
        return total.tryConsume(1);
    }

    /** Whole seconds until the address could have a refusal recorded on its own again (at least 1). */
    long secondsToWait(String address) {
        long wait = Math.max(bucket(address).estimateAbilityToConsume(1).getNanosToWaitForRefill(),
                total.estimateAbilityToConsume(1).getNanosToWaitForRefill());
        return Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
    }

    private Bucket bucket(String address) {
        return perAddress.get(AddressBlock.of(address), k -> Bucket.builder().addLimit(l -> l.capacity(capacity).refillGreedy(capacity, period)).build());
    }
}
