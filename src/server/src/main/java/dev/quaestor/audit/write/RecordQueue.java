package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditEvent;

/**
 * Where a record is queued for this replica's writer without waiting: {@link PendingCommit#await} waits for it. The
 * audit log's face ({@code dev.quaestor.audit.AuditLog}) is the one implementation.
 */
public interface RecordQueue {

    /** Queues {@code e}; throws {@code AuditUnavailableException} at once if the queue is full. */
    PendingCommit submit(AuditEvent e);
}
