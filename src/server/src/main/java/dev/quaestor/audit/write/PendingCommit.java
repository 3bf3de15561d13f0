package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An audit record queued for commit. {@link #await} blocks until it is durable (at most the commit
 * timeout) and otherwise throws {@link AuditUnavailableException}, so the caller fails closed.
 *
 * <p>A wait that ends without the commit gives the record up: the writer leaves out a record given up before it takes
 * it, since once its request has been refused the record would say more than happened. One the writer had already
 * taken may still be stored; the request's further records must then say how it ended (see the pipeline's
 * {@code Trail}).
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
            giveUp(e);
        } catch (TimeoutException e) {
            giveUp(e);
        } catch (Exception e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * Completes once the record is durable; exceptionally with {@link AuditUnavailableException} if it is not within
     * the commit timeout (the record is then given up, as by {@link #await}). For callers that must not block.
     */
    public CompletionStage<Void> committed() {
        return done.copy().orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).handle((v, e) -> {
            if (e != null) {
                giveUp(e);
            }
            return null;
        });
    }

    /** Already known not to have been committed (it may still be in flight when this is false). */
    public boolean failed() {
        return done.isCompletedExceptionally();
    }

    /** Gives the record up and throws, unless it was committed as the wait ended (then returns). */
    private void giveUp(Throwable why) {
        if (done.completeExceptionally(new AuditUnavailableException(why)) || done.isCompletedExceptionally()) {
            throw new AuditUnavailableException(why);
        }
    }
}
