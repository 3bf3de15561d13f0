package dev.quaestor.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The places for long reads of the audit log on this replica: exports and verifies, each capped overall and per
 * member of staff ({@link LongReadConfig}). A caller takes a {@link Place} before it starts and gives it back when
 * it ends (closing it twice is harmless); none is taken past a cap, and the refusal is counted in
 * {@code quaestor_audit_long_reads_refused_total}.
 */
// At start, so that its metrics are there (at 0) before the first long read.
@io.quarkus.runtime.Startup
@ApplicationScoped
public class LongReads {

    /** The kinds of long read, each with caps of its own. */
    public enum Kind {
        EXPORT("exports"), VERIFY("verifies");

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

    /** Why a place was refused, in words for the caller and the audit record. */
    public record Refusal(Kind kind, String reason, long retryAfterSeconds) {
    }

    private record Caps(int overall, int perPerson) {
    }

    private final Map<Kind, Caps> caps = new EnumMap<>(Kind.class);
    private final Map<Kind, AtomicInteger> running = new EnumMap<>(Kind.class);
    private final Map<Kind, Map<String, Integer>> byPerson = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> refusedOverall = new EnumMap<>(Kind.class);
    private final Map<Kind, Counter> refusedPerson = new EnumMap<>(Kind.class);
    private final long retryAfterSeconds;

    LongReads(LongReadConfig config, MeterRegistry metrics) {
        caps.put(Kind.EXPORT, new Caps(Math.max(1, config.exports()), Math.max(1, config.exportsPerPerson())));
        caps.put(Kind.VERIFY, new Caps(Math.max(1, config.verifies()), Math.max(1, config.verifiesPerPerson())));
        this.retryAfterSeconds = Math.max(1, config.retryAfter().toSeconds());
        for (Kind k : Kind.values()) {
            running.put(k, new AtomicInteger());
            byPerson.put(k, new ConcurrentHashMap<>());
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
    public record Attempt(Place place, Refusal refusal) {
    }

    /** A place for a long read of {@code kind} by {@code subject}, or why there is none. */
    public Attempt take(Kind kind, String subject) {
        Refusal r = refusal(kind, subject);
        return r == null ? new Attempt(new Place(kind, subject), null) : new Attempt(null, r);
    }

    /** Takes the place (counts it) and returns null, or counts the refusal and returns it. */
    private synchronized Refusal refusal(Kind kind, String subject) {
        Caps c = caps.get(kind);
        Map<String, Integer> mine = byPerson.get(kind);
        if (running.get(kind).get() >= c.overall()) {
            refusedOverall.get(kind).increment();
            return new Refusal(kind, c.overall() + " " + kind.plural + " are running on this server, the most it runs at once",
                    retryAfterSeconds);
        }
        if (mine.getOrDefault(subject, 0) >= c.perPerson()) {
            refusedPerson.get(kind).increment();
            return new Refusal(kind, "you have " + c.perPerson() + " " + kind.plural + " running, the most one person runs at once",
                    retryAfterSeconds);
        }
        running.get(kind).incrementAndGet();
        mine.merge(subject, 1, Integer::sum);
        return null;
    }

    private synchronized void release(Kind kind, String subject) {
        running.get(kind).decrementAndGet();
        byPerson.get(kind).computeIfPresent(subject, (s, n) -> n <= 1 ? null : n - 1);
    }

    /** The {@code Retry-After} of a refusal, in whole seconds. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
