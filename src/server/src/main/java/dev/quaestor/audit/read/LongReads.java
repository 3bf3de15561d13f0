package dev.quaestor.audit.read;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The places for long reads of the audit log on this replica: exports, verifies, evidence bundles and the reads of a
 * case's records (its page, its records in the API), each capped overall and per
 * member of staff ({@link LongReadConfig}). A caller takes a {@link Place} before it starts and gives it back when
 * it ends (closing it twice is harmless); none is taken past a cap, and the refusal is counted in
 * {@code quaestor_audit_long_reads_refused_total}.
 *
 * <p>Places are shared fairly where a kind has a queue ({@code quaestor.audit.long-reads.export-queue} and
 * {@code verify-queue}):
 * one who finds every place taken waits, for at most {@code export-wait} or {@code verify-wait}, and a place given back goes to the one who
 * has waited longest, never to whoever asks next; so one who loops, asking again as soon as a verify ends, waits
 * behind the others. A person waiting counts against their own cap as one running does, and the queue has a bound:
 * past it, or past the wait, the call is refused as before.
 */
// At start, so that its metrics are there (at 0) before the first long read.
@io.quarkus.runtime.Startup
@ApplicationScoped
public class LongReads {

    /** The kinds of long read, each with caps of its own. */
    public enum Kind {
        EXPORT("exports"), VERIFY("verifies"), BUNDLE("evidence bundles"), CASE("reads of a case's records");

        private final String plural;

        Kind(String plural) {
            this.plural = plural;
        }
    }

    /** A place held; {@link #close} gives it back. */
    public final class Place implements AutoCloseable {

        private final Kind kind;
        private final String subject;
        private final AtomicBoolean open = new AtomicBoolean(true);

        private Place(Kind kind, String subject) {
            this.kind = kind;
            this.subject = subject;
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                release(kind, subject);
            }
        }
    }

    /** Why there is no place for a long read, in words for the caller and the audit record. */
    public record NoPlace(Kind kind, String reason, long retryAfterSeconds) {
    }

    private record Caps(int overall, int perPerson, int queue, long waitNanos) {
    }

    /** One waiting for a place; {@code granted} is set (under the lock) when a place is handed to it. */
    private static final class Waiter {
        final String subject;
        Place granted;

        Waiter(String subject) {
            this.subject = subject;
        }
    }

    private final Map<Kind, Caps> caps = new EnumMap<>(Kind.class);
    private final Map<Kind, AtomicInteger> running = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Integer>> byPerson = new EnumMap<>(Kind.class);
    private final Map<Kind, java.util.ArrayDeque<Waiter>> waiting = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> refusedOverall = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> refusedPerson = new EnumMap<>(Kind.class);
    private final long retryAfterSeconds;

    LongReads(LongReadConfig config, MeterRegistry metrics) {
        caps.put(Kind.EXPORT, new Caps(Math.max(1, config.exports()), Math.max(1, config.exportsPerPerson()),
                Math.max(0, config.exportQueue()), config.exportWait().toNanos()));
        caps.put(Kind.VERIFY, new Caps(Math.max(1, config.verifies()), Math.max(1, config.verifiesPerPerson()),
                Math.max(0, config.verifyQueue()), config.verifyWait().toNanos()));
        caps.put(Kind.BUNDLE, new Caps(Math.max(1, config.bundles()), Math.max(1, config.bundlesPerPerson()), 0, 0));
        caps.put(Kind.CASE, new Caps(Math.max(1, config.caseReads()), Math.max(1, config.caseReadsPerPerson()), 0, 0));
        this.retryAfterSeconds = Math.max(1, config.retryAfter().toSeconds());
        for (Kind k : Kind.values()) {
            running.put(k, new AtomicInteger());
            byPerson.put(k, new ConcurrentHashMap<>());
            waiting.put(k, new java.util.ArrayDeque<>());
            String tag = k.name().toLowerCase(java.util.Locale.ROOT);
            metrics.gauge("quaestor.audit.long.reads.active", io.micrometer.core.instrument.Tags.of("kind", tag), running.get(k),
                    AtomicInteger::get);
            refusedOverall.put(k, Counter.builder("quaestor.audit.long.reads.refused").description("Long audit reads refused at a cap")
                    .tags("kind", tag, "cap", "overall").register(metrics));
            refusedPerson.put(k, Counter.builder("quaestor.audit.long.reads.refused").description("Long audit reads refused at a cap")
                    .tags("kind", tag, "cap", "person").register(metrics));
        }
    }

    /** The outcome of asking for a place: the place, or why there is none (exactly one is set). */
    public record Attempt(Place place, NoPlace refusal) {
    }

    /**
     * A place for a long read of {@code kind} by {@code subject}, or why there is none. Where the kind has a queue and
     * every place is taken, this waits for one (at most the kind's wait).
     */
    public Attempt take(Kind kind, String subject) {
        Waiter w;
        synchronized (this) {
            Caps c = caps.get(kind);
            Map<String, Integer> mine = byPerson.get(kind);
            var queue = waiting.get(kind);
            if (mine.getOrDefault(subject, 0) >= c.perPerson()) {
                refusedPerson.get(kind).increment();
                return refused(kind, "you have " + c.perPerson() + " " + kind.plural + " running or waiting, the most one person "
                        + "runs at once");
            }
            if (running.get(kind).get() < c.overall() && queue.isEmpty()) {
                running.get(kind).incrementAndGet();
                mine.merge(subject, 1, Integer::sum);
                return new Attempt(new Place(kind, subject), null);
            }
            if (queue.size() >= c.queue()) {
                refusedOverall.get(kind).increment();
                return refused(kind, c.overall() + " " + kind.plural + " are running on this server, the most it runs at once"
                        + (c.queue() == 0 ? "" : ", and " + queue.size() + " wait for a place, the most that may wait"));
            }
            w = new Waiter(subject);
            queue.addLast(w);
            mine.merge(subject, 1, Integer::sum);
        }
        return await(kind, w);
    }

    /** Waits for a place to be handed to {@code w}; past the kind's wait, leaves the queue and is refused. */
    private synchronized Attempt await(Kind kind, Waiter w) {
        Caps c = caps.get(kind);
        long deadline = System.nanoTime() + c.waitNanos();
        boolean interrupted = false;
        while (w.granted == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || interrupted) {
                break;
            }
            try {
                java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (w.granted != null) {
            return new Attempt(w.granted, null);
        }
        waiting.get(kind).remove(w);
        byPerson.get(kind).computeIfPresent(w.subject, (s, n) -> n <= 1 ? null : n - 1);
        refusedOverall.get(kind).increment();
        return refused(kind, c.overall() + " " + kind.plural + " are running on this server, the most it runs at once, and "
                + "none ended within " + java.time.Duration.ofNanos(c.waitNanos()).toSeconds() + " s of waiting");
    }

    private Attempt refused(Kind kind, String reason) {
        return new Attempt(null, new NoPlace(kind, reason, retryAfterSeconds));
    }

    /** Gives a place back: to the one who has waited longest for one, if anyone waits, else to the pool. */
    private synchronized void release(Kind kind, String subject) {
        byPerson.get(kind).computeIfPresent(subject, (s, n) -> n <= 1 ? null : n - 1);
        Waiter next = waiting.get(kind).pollFirst();
        if (next == null) {
            running.get(kind).decrementAndGet();
            return;
        }
        // The place passes on as it is: still running, now the waiter's (already counted against their own cap).
        next.granted = new Place(kind, next.subject);
        notifyAll();
    }

    /** How many wait for a place of {@code kind} now. */
    synchronized int waiting(Kind kind) {
        return waiting.get(kind).size();
    }

    /** The {@code Retry-After} of a refusal, in whole seconds. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
