package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An audit record queued for commit. {@link #await} blocks until it is durable (at most the commit
 * timeout) and otherwise throws {@link AuditUnavailableException}, so the caller fails closed.
 */
public final class PendingCommit {

    public final CompletableFuture<Void> done;
    private final long timeoutMillis;

    public PendingCommit(CompletableFuture<Void> done, long timeoutMillis) {
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
     * Completes once the record is durable; exceptionally with {@link AuditUnavailableException} if it is not within
     * the commit timeout. For callers that must not block (the I/O thread).
     */
    public java.util.concurrent.CompletionStage<Void> committed() {
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
