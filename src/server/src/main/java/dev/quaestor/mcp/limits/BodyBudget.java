package dev.quaestor.mcp.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * What one subject's request bodies may cost in bytes before they are parsed: a body above
 * {@code quaestor.limits.per-subject.body-bytes-free} is charged its size against a budget that refills at
 * {@code body-bytes-per-second} up to {@code body-bytes-burst}. Past it the body is refused (429 / -32004, on record)
 * without being parsed, so parsing large bodies costs one subject at most its budget's rate. Small bodies, which
 * every ordinary JSON-RPC message is, are never charged. A subject's budget is forgotten once it has refilled.
 */
@ApplicationScoped
public class BodyBudget {

    private final long free;
    private final double perNano;
    private final long burst;
    private final Cache<String, Budget> budgets;

    /** Bytes left and when they were counted; changed only under the cache entry's compute. */
    private record Budget(double bytes, long at) {
    }

    BodyBudget(SubjectLimitsConfig config) {
        this.free = config.bodyBytesFree();
        this.burst = Math.max(1, config.bodyBytesBurst());
        this.perNano = Math.max(1, config.bodyBytesPerSecond()) / 1e9;
        long refillSeconds = Math.max(1, burst / Math.max(1, config.bodyBytesPerSecond()) + 1);
        this.budgets = Caffeine.newBuilder().expireAfterAccess(Duration.ofSeconds(refillSeconds)).build();
    }

    /**
     * Charges a body of {@code size} bytes to {@code subject}; false (nothing charged) if its budget cannot pay for it
     * now. A body larger than the whole budget is charged the whole budget.
     */
    public boolean charge(String subject, long size) {
        if (size <= free) {
            return true;
        }
        double cost = Math.min(size, burst);
        boolean[] paid = {false};
        long now = System.nanoTime();
        budgets.asMap().compute(subject, (k, b) -> {
            double left = b == null ? burst : Math.min(burst, b.bytes() + (now - b.at()) * perNano);
            if (left >= cost) {
                paid[0] = true;
                left -= cost;
            }
            return new Budget(left, now);
        });
        return paid[0];
    }

    /**
     * Charges {@code size} bytes already read of a body that was then refused (over the size limit, broken off): they
     * were spent whether or not the budget could pay, so it may fall below nothing, down to minus the whole budget.
     */
    public void spent(String subject, long size) {
        if (size <= free) {
            return;
        }
        double cost = Math.min(size, burst);
        long now = System.nanoTime();
        budgets.asMap().compute(subject, (k, b) -> {
            double left = b == null ? burst : Math.min(burst, b.bytes() + (now - b.at()) * perNano);
            return new Budget(Math.max(-burst, left - cost), now);
        });
    }

    /** Whether {@code subject} owes bytes (bodies refused after they were read): then no body over the free size is read. */
    public boolean owes(String subject) {
        Budget b = budgets.getIfPresent(subject);
        return b != null && b.bytes() + (System.nanoTime() - b.at()) * perNano <= 0;
    }

    /** Bodies up to this size are never charged. */
    public long free() {
        return free;
    }

    /** What a refusal's record says of the budget. */
    public String detail(long size) {
        return "a body of " + size + " bytes; bodies over " + free + " bytes are charged against " + burst
                + " bytes refilled at " + Math.round(perNano * 1e9) + " a second";
    }
}
