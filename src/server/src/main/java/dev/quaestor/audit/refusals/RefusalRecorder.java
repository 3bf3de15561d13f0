package dev.quaestor.audit.refusals;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.write.RecordQueue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The one way a refused request gets its record. While its subject is under the attempt limit
 * ({@code quaestor.audit.attempts.limit} per {@code period}) a refusal is its own record, as any; past it,
 * refusals with the same subject, client and reason are merged per window ({@code merge-window}, at most 1 s)
 * into one {@code ATTEMPT_SUMMARY} with the exact count, the first and last time, and the URIs they named. Either
 * way the caller answers the refusal only once its record has committed ({@link RecordedRefusal}), so a crash
 * loses no refusal that was answered, and a subject makes this replica write at most its attempt limit plus one
 * record per (client, reason) per window and per 32 distinct URIs its refusals named: a summary whose URI list is full
 * closes at once and the next one counts on, so every URI is named in a summary, whatever decoys came first.
 */
@ApplicationScoped
public class RefusalRecorder {

    /** More open windows than this would be a memory bound in name only: such a refusal fails closed. */
    private static final int MAX_OPEN_WINDOWS = 100_000;
    /**
     * Where merged refusals are released: one daemon thread for the process (its queue holds at most one task per
     * summary written), so that the writer's thread never answers them.
     */
    private static final Executor RELEASES = Executors.newSingleThreadExecutor(r -> {
        var t = new Thread(r, "quaestor-refusal-release");
        t.setDaemon(true);
        return t;
    });

    private final RecordQueue log;
    private final AttemptLimit limit;
    private final MergeWindows windows;
    private final long commitTimeoutMillis;
    private final long windowMillis;
    private final Counter single;
    private final Counter merged;
    private final Counter summaries;
    /** Outcomes whose refusals are answered before they are recorded ({@link #answersFirst}). */
    private final Set<String> answeredFirst = ConcurrentHashMap.newKeySet();

    RefusalRecorder(RecordQueue log, AuditConfig config, MeterRegistry metrics) {
        Duration window = config.attempts().mergeWindow(); // more than 0, at most 1s: AuditConfig#checkRanges
        this.log = log;
        this.limit = new AttemptLimit(config.attempts().limit(), config.attempts().period());
        this.commitTimeoutMillis = config.commitTimeout().toMillis();
        this.windowMillis = window.toMillis();
        this.windows = new MergeWindows(window, MAX_OPEN_WINDOWS, this::write);
        this.single = Counter.builder("quaestor.audit.refusals").tag("recorded", "single")
                .description("Refused requests recorded, on their own or counted into a summary").register(metrics);
        this.merged = Counter.builder("quaestor.audit.refusals").tag("recorded", "merged")
                .description("Refused requests recorded, on their own or counted into a summary").register(metrics);
        this.summaries = Counter.builder("quaestor.audit.refusal.summaries")
                .description("ATTEMPT_SUMMARY records written for refusals past an attempt limit").register(metrics);
        Gauge.builder("quaestor.audit.refusal.windows", windows, MergeWindows::openWindows)
                .description("Merge windows open (one per subject or address, client and reason)").register(metrics);
    }

    /**
     * Declares that refusals with this outcome are answered before they are recorded (their connection cannot wait
     * for the commit), so that a summary counting them does not say each was answered once it had committed.
     */
    public void answersFirst(String outcome) {
        answeredFirst.add(outcome);
    }

    /**
     * Records a refusal: on its own while its subject is under the attempt limit, else counted into its key's
     * summary. Throws {@link AuditUnavailableException} when it cannot be queued.
     */
    public RecordedRefusal record(AuditEvent refusal) {
        if (limit.recordsOnItsOwn(refusal.caller() == null ? null : refusal.caller().subject())) {
            return alone(refusal);
        }
        return merge(refusal);
    }

    /**
     * Records a refusal on its own, whatever its subject's attempt limit: for callers that spent a budget of their own
     * for its record before asking (refused authentication, limited per address and in total).
     */
    public RecordedRefusal alone(AuditEvent refusal) {
        PendingCommit p = log.submit(refusal);
        single.increment();
        return new RecordedRefusal(refusal.requestId(), p.done, false, commitTimeoutMillis);
    }

    /**
     * Counts a refusal into its key's summary whatever its subject's attempt limit: for callers with a limit of
     * their own (refused authentication, limited per address before any token is checked).
     */
    public RecordedRefusal merge(AuditEvent refusal) {
        return merge(refusal, () -> true);
    }

    /**
     * Counts a refusal into its key's summary; a summary of its own opens only if {@code mayOpen} says so (spending the
     * caller's budget for it), else the refusal is counted into the one summary that every such caller's refusals
     * with its client and reason share for the window ({@code ip} then left out where they differ).
     */
    public RecordedRefusal merge(AuditEvent refusal, BooleanSupplier mayOpen) {
        MergeWindows.Window w = windows.join(refusal, mayOpen);
        if (w == null) {
            throw new AuditUnavailableException(new IllegalStateException("too many merge windows open"));
        }
        merged.increment();
        return new RecordedRefusal(w.requestId, w.committed, true, windowMillis + commitTimeoutMillis);
    }

    /**
     * A closed window's summary into the writer's queue; its refusals are released when it commits, on a thread of
     * their own: a summary may count thousands of refusals, each answered as it is released, and the writer's thread
     * goes on to the next batch meanwhile.
     */
    private void write(MergeWindows.Window w) {
        CompletableFuture<Void> done = log.submit(w.close(answeredFirst.contains(w.outcome()))).done;
        summaries.increment();
        done.whenCompleteAsync((v, e) -> {
            if (e == null) {
                w.committed.complete(null);
            } else {
                w.committed.completeExceptionally(e instanceof AuditUnavailableException ? e : new AuditUnavailableException(e));
            }
        }, RELEASES);
    }


    /** Open windows are written before the audit writer stops (it stops at priority 1). */
    void stop(@Observes @Priority(0) ShutdownEvent ev) {
        windows.closeAll();
    }
}
