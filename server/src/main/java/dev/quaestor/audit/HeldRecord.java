package dev.quaestor.audit;

/**
 * A request's first record (its {@code DECISION}), held back so that it is queued together with the
 * record that follows it (the {@code OUTCOME}): one queue entry, chained as two consecutive records
 * in one batch, stored or refused together, so the request waits for one commit, not two in a row.
 * Nothing is disclosed before that commit, so the decision is still durable before anything is
 * served. Used by one request thread at a time.
 *
 * <p>A step that must have the decision durable on its own first (content streamed before its
 * outcome exists, a subscription about to be stored) calls {@link #commit}. {@link #close} queues a
 * record that was neither paired nor committed, so a request that ends some other way (an unexpected
 * error) still leaves its decision in the log.
 */
public final class HeldRecord implements AutoCloseable {

    private final GroupCommitWriter writer;
    private final AuditEvent event;
    private PendingCommit queued;

    HeldRecord(GroupCommitWriter writer, AuditEvent event) {
        this.writer = writer;
        this.event = event;
    }

    /** Queues the held record if it is not yet, and waits until it is committed ({@link AuditUnavailableException} if not). */
    public void commit() {
        queue().await();
    }

    /**
     * Queues {@code next} with the held record (as a pair, if the held record is not queued yet; else
     * stored only if the held record was) and returns what to wait for: both are committed when it completes.
     */
    public PendingCommit then(AuditEvent next) {
        if (queued == null) {
            queued = writer.submitPair(event, next);
            return queued;
        }
        return writer.submit(next, queued);
    }

    /** Queues the held record if nothing else did, without waiting. */
    @Override
    public void close() {
        if (queued == null) {
            try {
                queue();
            } catch (AuditUnavailableException e) {
                // Counted by the writer as a failure; the request is already ending without disclosing anything.
            }
        }
    }

    private PendingCommit queue() {
        if (queued == null) {
            queued = writer.submit(event, null);
        }
        return queued;
    }
}
