package dev.quaestor.pipeline;

import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * The bulkhead of a mount without a circuit breaker: at most {@code limit} calls in flight, one more refused at once
 * with the {@link BulkheadException} SmallRye's guard would throw. A mount with a breaker keeps SmallRye's guard for
 * both; one without needs no more than this, and a read then pays for no guard's machinery around a call that ends
 * in time.
 */
final class MountBulkhead {

    private final Semaphore places;
    private final int limit;

    MountBulkhead(int limit) {
        this.limit = limit;
        this.places = new Semaphore(limit);
    }

    <T> T run(Supplier<T> work) {
        if (!places.tryAcquire()) {
            throw new BulkheadException("the mount's " + limit + " places for calls in flight are taken");
        }
        try {
            return work.get();
        } finally {
            places.release();
        }
    }
}
