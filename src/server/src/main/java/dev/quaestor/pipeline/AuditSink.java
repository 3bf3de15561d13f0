package dev.quaestor.pipeline;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.refusals.RefusalRecorder;
import java.util.function.Supplier;

/**
 * Where a {@link Trail} writes its records: the audit log for a request's {@code DECISION} and {@code OUTCOME}, the
 * {@link RefusalRecorder} for a refusal's one record. Each method throws
 * {@link dev.quaestor.audit.record.AuditUnavailableException} when the record cannot be taken.
 */
interface AuditSink {

    /** Queues a record without waiting. */
    PendingCommit submit(AuditEvent event);

    /** Queues a record stored only if {@code first} is. */
    PendingCommit submitAfter(PendingCommit first, AuditEvent event);

    /**
     * Queues a request's {@code OUTCOME}, stored only if {@code decision} is (if not null), with the record that says
     * how the request really ended should the {@code OUTCOME} be stored although its waiter was told it was not.
     */
    default PendingCommit submitOutcome(PendingCommit decision, AuditEvent outcome, Supplier<AuditEvent> correction) {
        return decision == null ? submit(outcome) : submitAfter(decision, outcome);
    }

    /**
     * Queues a request's {@code DECISION}, with the record that says the request was refused should the
     * {@code DECISION} be stored although its waiter was told it was not.
     */
    default PendingCommit submitDecision(AuditEvent decision, Supplier<AuditEvent> refused) {
        return submit(decision);
    }

    /**
     * Owes a record that says what a request already did, its {@code DECISION} stored: kept until it is stored, even
     * while the log's database is away.
     */
    default void submitOwed(AuditEvent event) {
        submit(event);
    }

    /** A refusal's one record: on its own, or counted into a summary. */
    RecordedRefusal refusal(AuditEvent event);

    static AuditSink of(AuditLog log, RefusalRecorder refusals) {
        return new AuditSink() {
            @Override
            public PendingCommit submit(AuditEvent event) {
                return log.submit(event);
            }

            @Override
            public PendingCommit submitAfter(PendingCommit first, AuditEvent event) {
                return log.submitAfter(first, event);
            }

            @Override
            public PendingCommit submitOutcome(PendingCommit decision, AuditEvent outcome, Supplier<AuditEvent> correction) {
                return log.submitAfter(decision, outcome, correction);
            }

            @Override
            public PendingCommit submitDecision(AuditEvent decision, Supplier<AuditEvent> refused) {
                return log.submitCall(decision, refused);
            }

            @Override
            public void submitOwed(AuditEvent event) {
                log.submitOwed(event);
            }

            @Override
            public RecordedRefusal refusal(AuditEvent event) {
                return refusals.record(event);
            }
        };
    }
}
