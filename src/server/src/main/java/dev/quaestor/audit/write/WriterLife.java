package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.RequestIds;

import java.time.Clock;
import java.time.Instant;
import java.util.List;

/**
 * What the log's writer records of itself before a batch: {@code AUDIT_START} (and {@code KEY_ROTATION} when it signs
 * with a key the log's last checkpoint was not signed with) until its first batch is stored, and {@code AUDIT_PAUSE}
 * once it commits again after failing: how many records were refused, the first and last time. Touched only by the
 * writer thread.
 */
final class WriterLife {

    private final String origin;
    private final SigningKey key;
    private final Clock clock;
    private boolean started;
    // Records refused while the log could not commit, reported in an AUDIT_PAUSE once it can again.
    private long refused;
    private Instant refusedFirst;
    private Instant refusedLast;

    WriterLife(String origin, SigningKey key, Clock clock) {
        this.origin = origin;
        this.key = key;
        this.clock = clock;
    }

    /** Adds what the writer has to say of itself to the batch's events, its life before the records. */
    void addTo(List<AuditEvent> events, LogHead head) {
        if (!started) {
            events.add(AuditEvent.of(AuditEvent.Kind.AUDIT_START, RequestIds.next()).time(clock.instant()).method("audit/start")
                    .detail("writer started; log " + origin + "; checkpoints signed by " + key.verifierKey()).build());
            String previous = head.lastSigningKeyId();
            if (previous != null && !previous.equals(key.verifierKey().keyIdHex())) {
                events.add(AuditEvent.of(AuditEvent.Kind.KEY_ROTATION, RequestIds.next()).time(clock.instant())
                        .method("audit/key-rotation")
                        .detail("checkpoints of log " + origin + " were signed by key id " + previous + "; from now on by "
                                + key.verifierKey())
                        .build());
            }
        }
        if (refused > 0) {
            events.add(AuditEvent.of(AuditEvent.Kind.AUDIT_PAUSE, RequestIds.next()).time(clock.instant()).method("audit/pause")
                    .summary(refused, refusedFirst, refusedLast)
                    .detail("the audit log could not commit; " + refused + " record(s) were refused and their requests failed")
                    .build());
        }
    }

    /** A batch was stored, with what {@link #addTo} said: the start and any pause are on record. */
    void stored() {
        started = true;
        refused = 0;
    }

    /** {@code count} records counted as refused were found stored after all (a commit whose reply was lost). */
    void storedAfterAll(int count) {
        refused = Math.max(0, refused - count);
    }

    /** {@code count} records were refused now. */
    void refused(int count) {
        Instant now = clock.instant();
        refusedFirst = refused == 0 ? now : refusedFirst;
        refusedLast = now;
        refused += count;
    }
}
