package dev.quaestor.audit.refusals;

import dev.quaestor.audit.record.AuditUnavailableException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A refusal handed to the audit log ({@link RefusalRecorder}): the request id its answer must carry (its own
 * record's, or the summary's it was merged into) and when that record is durable. The refusal may be answered
 * only then: {@link #await} on a thread that may block, or {@link #committed} to answer later without holding one.
 */
public final class RecordedRefusal {

    private final String requestId;
    private final CompletableFuture<Void> committed;
    private final boolean merged;
    private final long timeoutMillis;

    RecordedRefusal(String requestId, CompletableFuture<Void> committed, boolean merged, long timeoutMillis) {
        this.requestId = requestId;
        this.committed = committed;
        this.merged = merged;
        this.timeoutMillis = timeoutMillis;
    }

    /** The request id to answer with: the refusal's own, or that of the summary counting it. */
    public String requestId() {
        return requestId;
    }

    /** Whether it is counted in a summary (which commits when its window closes) rather than recorded on its own. */
    public boolean merged() {
        return merged;
    }

    /**
     * Completes once the record carrying this refusal is durable; exceptionally with {@link AuditUnavailableException}
     * if it cannot be, or is not within its time bound (the merge window and the commit timeout).
     */
    public CompletionStage<Void> committed() {
        return committed.copy().orTimeout(timeoutMillis, TimeUnit.MILLISECONDS).handle((v, e) -> {
            if (e != null && !committedAfterAll(e)) {
                Throwable cause = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
                throw cause instanceof AuditUnavailableException u ? u : new AuditUnavailableException(cause);
            }
            return null;
        });
    }

    /** Waits until the record is durable; throws {@link AuditUnavailableException} otherwise (fail closed). */
    public void await() {
        try {
            committed.get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (!committedAfterAll(e)) {
                throw new AuditUnavailableException(e);
            }
        } catch (java.util.concurrent.TimeoutException e) {
            if (!committedAfterAll(e)) {
                throw new AuditUnavailableException(e);
            }
        } catch (Exception e) {
            throw new AuditUnavailableException(e);
        }
    }

    /**
     * After a wait that ended without the commit: whether the record committed just then after all. Otherwise a
     * refusal recorded on its own is given up, so that the writer leaves it out if it has not taken it yet (its answer
     * is now the audit log's -32005, not what the record says); a summary is shared with other refusals and is kept.
     */
    private boolean committedAfterAll(Throwable why) {
        if (!merged) {
            committed.completeExceptionally(new AuditUnavailableException(why));
        }
        return committed.isDone() && !committed.isCompletedExceptionally();
    }
}
