package dev.quaestor.audit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * An audit record queued for commit. {@link #await} blocks until it is durable (at most the commit
 * timeout) and otherwise throws {@link AuditUnavailableException}, so the caller fails closed;
 * {@link #committed} is the same without blocking a thread.
 */
public final class PendingCommit {

    final CompletableFuture<Void> done;
    private final long timeoutMillis;

    PendingCommit(CompletableFuture<Void> done, long timeoutMillis) {
        this.done = done;
        this.timeoutMillis = timeoutMillis;
    }

    public void await() {
        try {
            done.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AuditUnavailableException(e);
        } catch (Exception e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * Completes once the record is durable, or fails with {@link AuditUnavailableException} if it is
     * not committed within the commit timeout. Runs its dependents on the audit writer's thread (or
     * the timer's): hand anything but trivial work to another executor.
     */
    public CompletionStage<Void> committed() {
        // A copy, so that the time-out fails this caller's view only, never the record the writer holds.
        return done.copy().orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).handle((v, e) -> {
            if (e != null) {
                throw new AuditUnavailableException(e);
            }
            return null;
        });
    }

    /** Already known not to have been committed (it may still be in flight when this is false). */
    public boolean failed() {
        return done.isCompletedExceptionally();
    }
}
