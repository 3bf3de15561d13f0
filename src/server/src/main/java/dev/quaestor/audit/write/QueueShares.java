package dev.quaestor.audit.write;

import dev.quaestor.audit.record.AuditEvent;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many records each subject has waiting in the writer's queue, each at most its share of the queue, so that no
 * subject can fill the queue every request needs. Records of callers without a subject (refused authentications,
 * reads of the published key: anyone's) are counted together, as one more subject, so that together they too take
 * at most one share. Records without a caller (the writer's own, policy changes) and summaries of refusals (bounded
 * per window by the {@link RefusalRecorder}) are not counted.
 */
final class QueueShares {

    /** The key of the records of callers without a subject; no subject's key is ever equal to it. */
    private static final String ANONYMOUS = "anonymous";

    private final int share;
    private final ConcurrentHashMap<String, AtomicInteger> waiting = new ConcurrentHashMap<>();
    private final Counter refused;

    QueueShares(int capacity, double fraction, MeterRegistry metrics) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("quaestor.audit.queue-share must be more than 0 and at most 1, not " + fraction);
        }
        this.share = Math.max(1, (int) Math.floor(capacity * fraction));
        this.refused = Counter.builder("quaestor.audit.queue.share.refused")
                .description("Records refused because their subject's waiting records were at its share of the queue")
                .register(metrics);
    }

    /** The key a record is counted under, or null if it is not counted. */
    static String keyOf(AuditEvent event) {
        if (event.kind() == AuditEvent.Kind.ATTEMPT_SUMMARY || event.caller() == null) {
            return null;
        }
        String subject = event.caller().subject();
        return subject == null ? ANONYMOUS : subjectKey(subject);
    }

    private static String subjectKey(String subject) {
        return "subject:" + subject;
    }

    /** Counts one more waiting record of {@code key}; false (nothing counted) if it is at its share. */
    boolean enter(String key) {
        if (key == null) {
            return true;
        }
        boolean[] entered = {false};
        waiting.compute(key, (k, n) -> {
            AtomicInteger count = n == null ? new AtomicInteger() : n;
            if (count.get() < share) {
                count.incrementAndGet();
                entered[0] = true;
            }
            return count.get() == 0 ? null : count;
        });
        if (!entered[0]) {
            refused.increment();
        }
        return entered[0];
    }

    /** One waiting record of {@code key} has left the queue. */
    void leave(String key) {
        if (key != null) {
            waiting.computeIfPresent(key, (k, n) -> n.decrementAndGet() <= 0 ? null : n);
        }
    }

    /** Whether the subject's waiting records are at its share. */
    boolean full(String subject) {
        AtomicInteger n = subject == null ? null : waiting.get(subjectKey(subject));
        return n != null && n.get() >= share;
    }
}
