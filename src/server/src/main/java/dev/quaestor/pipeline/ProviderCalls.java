package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.mounts.MountTable;
import dev.quaestor.provider.mounts.MountTable.Mounted;
import dev.quaestor.provider.mounts.MountsConfig;
import dev.quaestor.provider.Page;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.provider.ResourceNotFoundException;
import dev.quaestor.uri.CanonicalUri;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.faulttolerance.api.Guard;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.jboss.logging.Logger;

/**
 * Every provider call, through its mount's SmallRye Fault Tolerance guard: a time box (-32001),
 * a bulkhead bounding the calls in flight (-32005 when full) and, for remote providers or when
 * configured, a circuit breaker (-32005 while open). A hung provider therefore costs one bounded
 * request and at most {@code bulkhead} worker threads, never the server. Guards are built per
 * mount from {@code quaestor.mounts.<name>.*} because one annotation cannot carry per-mount values.
 *
 * <p>Before the guard, each call takes a place of its subject's share of the mount's bulkhead
 * ({@code subject-share}, a {@link SubjectShare}), given back when the guard gives back its bulkhead place: a
 * subject past its share while no more than a share of the bulkhead is free is refused
 * ({@link ProviderFailure.Kind#SUBJECT_SHARE}, 429 / -32004), so that share stays for everyone else. A share that would be the whole bulkhead adds nothing and is not kept.
 */
@ApplicationScoped
public class ProviderCalls implements ContentSources {

    private static final Logger LOG = Logger.getLogger(ProviderCalls.class);

    /** Normal answers from a provider, not signs of a failing backend. */
    private static final List<Class<? extends Throwable>> NOT_FAILURES = List.of(ResourceNotFoundException.class,
            InvalidCursorException.class, ContentTooLargeException.class, BulkheadException.class);

    /** {@code share}: null when one subject may hold the whole bulkhead. */
    private record Guarded(Guard guard, long timeoutMs, SubjectShare share) {
    }

    private final Map<String, Guarded> guards = new HashMap<>();
    private final MountTable mounts;
    private final MeterRegistry metrics;
    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    ProviderCalls(MountTable mounts, MountsConfig config, MeterRegistry metrics,
            @ConfigProperty(name = "quaestor.provider.timeout-ms", defaultValue = "10000") long defaultTimeoutMs) {
        this.mounts = mounts;
        this.metrics = metrics;
        for (Mounted m : mounts.all()) {
            String name = m.mount().name();
            var c = config.mounts().get(name);
            long timeoutMs = c.timeoutMs().orElse(defaultTimeoutMs);
            var cb = c.circuitBreaker();
            boolean breaker = cb.enabled().orElse(m.remote());
            var builder = Guard.create()
                    .withDescription("provider:" + name)
                    .withTimeout().duration(timeoutMs, ChronoUnit.MILLIS).done()
                    .withBulkhead().limit(c.bulkhead()).done();
            if (breaker) {
                builder = builder.withCircuitBreaker()
                        .name("provider-" + name)
                        .requestVolumeThreshold(cb.requestVolume())
                        .failureRatio(cb.failureRatio())
                        .delay(cb.delayMs(), ChronoUnit.MILLIS)
                        .skipOn(NOT_FAILURES)
                        .onStateChange(s -> LOG.warnf("circuit breaker of mount %s is now %s", name, s))
                        .done();
            }
            guards.put(name, new Guarded(builder.build(), timeoutMs, SubjectShare.of(name, c.bulkhead(), c.subjectShare())));
        }
    }

    /**
     * The provider's read, the opening of its content and its first {@code bufferLimit + 1} bytes,
     * all inside the mount's guard, so the time box bounds a provider that is slow to open as well as
     * one slow to answer. Content over the mount's {@code max-bytes} is refused here, before anything
     * is sent. A stream opened by a call the guard gave up on is closed. Large text is then checked to be UTF-8
     * throughout ({@link TextCheck}), each read held to the time box, before anything of it is sent.
     */
    @Override
    public Optional<Mounted> resolve(CanonicalUri uri) {
        return mounts.resolve(uri);
    }

    @Override
    public List<Mounted> all() {
        return mounts.all();
    }

    @Override
    public long shortestTtlMs() {
        return mounts.shortestTtlMs();
    }

    @Override
    public OpenedContent read(String subject, Mounted mount, CanonicalUri uri, int bufferLimit) {
        long maxBytes = mount.mount().longSetting("max-bytes", Long.MAX_VALUE);
        var opened = new ConcurrentLinkedQueue<InputStream>();
        try {
            OpenedContent content = call(subject, mount,
                    () -> OpenedContent.open(mount.provider().read(uri), bufferLimit, maxBytes, opened));
            if (content.rest() == null) {
                return content;
            }
            // What is read after the call returns is read outside its guard: each read is held to the time box.
            long timeoutMs = guards.get(mount.mount().name()).timeoutMs();
            var boxed = new OpenedContent(content.entry(), content.text(), content.head(),
                    new TimeBoxedStream(content.rest(), timeoutMs),
                    content.again() == null ? null : new TimeBoxedStream(content.again(), timeoutMs));
            try {
                return TextCheck.settle(boxed, maxBytes);
            } catch (TimeBoxedStream.Expired e) {
                throw new ProviderFailure(ProviderFailure.Kind.TIMEOUT, mount.mount().name(), timeoutMs, e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } catch (RuntimeException e) {
            for (InputStream leftover; (leftover = opened.poll()) != null; ) {
                try {
                    leftover.close();
                } catch (IOException | RuntimeException closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
    }

    /** Candidate values for a template argument, under the mount's guard like any provider call. */
    @Override
    public List<String> complete(String subject, Mounted mount, String template, String argument, String prefix,
            Map<String, String> resolved, int limit) {
        return call(subject, mount, () -> mount.provider().complete(template, argument, prefix, resolved, limit));
    }

    /**
     * A listing across mounts. A mount whose guard refuses (breaker open, bulkhead full, the subject's
     * share of it taken, time box) or whose provider fails is left out of this listing rather than
     * failing it for every other mount; its name and why go to {@code skipped}, which the pipeline
     * audits. Reads of that mount still fail with their own error.
     */
    @Override
    public Page<ResourceEntry> list(String subject, String cursor, int limit, int scanBudget,
            Predicate<ResourceEntry> visible, List<String> skipped) {
        return mounts.list(cursor, limit, scanBudget, visible, (m, c, n) -> {
            try {
                return call(subject, m, () -> m.provider().list(c, n));
            } catch (InvalidCursorException e) {
                throw e;
            } catch (ProviderFailure e) {
                skipped.add("mount " + m.mount().name() + " left out of the listing: " + e.kind().outcome);
            } catch (RuntimeException e) {
                LOG.warnf(e, "listing mount %s failed; it is left out of this listing", m.mount().name());
                skipped.add("mount " + m.mount().name() + " left out of the listing: error");
            }
            return new Page<>(List.of(), null);
        });
    }

    /**
     * {@code work} under the mount's guard, once the subject has a place of its share of the bulkhead; the place is
     * given back when the guard returns, however it ends (the guard gives back its own bulkhead place before that: a
     * call past its time box holds both until its provider returns).
     */
    @SuppressWarnings("unchecked")
    private <T> T call(String subject, Mounted mount, Supplier<T> work) {
        String name = mount.mount().name();
        Guarded g = guards.get(name);
        long start = System.nanoTime();
        String outcome = "ok";
        SubjectShare share = g.share();
        String holder = subject == null ? "" : subject;
        if (share != null && !share.tryTake(holder)) {
            outcome = ProviderFailure.Kind.SUBJECT_SHARE.outcome;
            timer(name, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
            throw new ProviderFailure(ProviderFailure.Kind.SUBJECT_SHARE, name, g.timeoutMs(), share.places(), null);
        }
        try {
            return g.guard().get(work, (Class<T>) Object.class);
        } catch (TimeoutException e) {
            outcome = ProviderFailure.Kind.TIMEOUT.outcome;
            throw new ProviderFailure(ProviderFailure.Kind.TIMEOUT, name, g.timeoutMs(), e);
        } catch (BulkheadException e) {
            outcome = ProviderFailure.Kind.BULKHEAD_FULL.outcome;
            throw new ProviderFailure(ProviderFailure.Kind.BULKHEAD_FULL, name, g.timeoutMs(), e);
        } catch (CircuitBreakerOpenException e) {
            outcome = ProviderFailure.Kind.CIRCUIT_OPEN.outcome;
            throw new ProviderFailure(ProviderFailure.Kind.CIRCUIT_OPEN, name, g.timeoutMs(), e);
        } catch (ResourceNotFoundException e) {
            outcome = "not-found";
            throw e;
        } catch (RuntimeException e) {
            outcome = "error";
            throw e;
        } finally {
            if (share != null) {
                share.release(holder);
            }
            timer(name, outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }

    private Timer timer(String mount, String outcome) {
        // Mount names and outcomes are both small fixed sets: bounded label cardinality.
        return timers.computeIfAbsent(mount + '\u0000' + outcome, k -> Timer.builder("quaestor.provider.calls")
                .description("Provider calls by mount and outcome")
                .tag("mount", mount).tag("outcome", outcome).register(metrics));
    }
}
