package dev.quaestor.mcp.stateless;

import dev.quaestor.http.ShutdownDrain;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.SubjectCapReached;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.SubjectSlots;
import dev.quaestor.subscription.ChangeNotifier;
import dev.quaestor.subscription.SubscriptionConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.OutboundSseEvent;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The {@code subscriptions/listen} streams open on this replica (2026-07-28), at most
 * {@code quaestor.subscriptions.max-listen-streams}. Each gets a keep-alive comment every
 * {@code quaestor.subscriptions.keep-alive}. A stream ends when the client closes it, and when the token
 * that opened it expires (checked every {@code quaestor.subscriptions.stream-check-interval}, without the
 * database): the server then sends the listen request's result, the graceful end the revision defines,
 * and closes it; the client listens again with a fresh token. Shutdown ends every stream the same way, once the
 * shutdown delay is over ({@link ShutdownDrain}).
 */
@ApplicationScoped
class ListenStreams {

    private record Open(ListenOutlet outlet, Instant expiresAt, String result) {
    }

    private final ChangeNotifier notifier;
    private final int max;
    private final SubjectSlots perSubject;
    private final Map<String, Open> local = new ConcurrentHashMap<>();
    private final ScheduledExecutorService scheduler;

    ListenStreams(ChangeNotifier notifier, SubscriptionConfig config, SubjectLimitsConfig limits, MeterRegistry metrics,
            ShutdownDrain drain) {
        this.perSubject = new SubjectSlots(limits.listens());
        this.notifier = notifier;
        this.max = config.maxListenStreams();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-listen-streams");
            t.setDaemon(true);
            return t;
        });
        long keepAlive = Math.max(100, config.keepAlive().toMillis());
        long check = Math.max(100, config.streamCheckInterval().toMillis());
        scheduler.scheduleWithFixedDelay(() -> local.values().forEach(o -> o.outlet().keepAlive()), keepAlive, keepAlive,
                TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::check, check, check, TimeUnit.MILLISECONDS);
        Gauge.builder("quaestor.listen.streams", local, Map::size)
                .description("subscriptions/listen streams open on this replica").register(metrics);
        drain.atDrain(this::endAll);
    }

    /** Whether another stream may open now. */
    boolean hasRoom() {
        return local.size() < max;
    }

    /**
     * Reserves one of the subject's listen streams ({@code quaestor.limits.per-subject.listens} on this replica), before
     * anything is judged; throws {@link SubjectCapReached} if it holds them all. The reservation is given back when the
     * stream it is {@link #open opened} for ends, or by {@link #unreserve} if none opens.
     */
    void reserve(String subject) {
        if (!perSubject.tryTake(subject)) {
            throw new SubjectCapReached(Cap.LISTENS, perSubject.cap());
        }
    }

    void unreserve(String subject) {
        perSubject.release(subject);
    }

    /**
     * Starts delivering to the stream and returns its events, under the subject's reservation ({@link #reserve}).
     * {@code result} is the listen request's result, sent when the server ends the stream. Blocking (the first stream
     * starts the providers' watchers).
     */
    Multi<OutboundSseEvent> open(ListenOutlet outlet, String subject, Instant tokenExpiry, String result) {
        var open = new Open(outlet, tokenExpiry, result);
        local.put(outlet.key(), open);
        notifier.attach(outlet);
        var released = new java.util.concurrent.atomic.AtomicBoolean();
        return outlet.events(() -> {
            local.remove(outlet.key(), open);
            notifier.detach(outlet);
            if (released.compareAndSet(false, true)) {
                perSubject.release(subject);
            }
        });
    }

    private void check() {
        Instant now = Instant.now();
        local.values().forEach(o -> {
            if (o.expiresAt() != null && !now.isBefore(o.expiresAt())) {
                end(o);
            }
        });
    }

    private void end(Open o) {
        if (local.remove(o.outlet().key(), o)) {
            notifier.detach(o.outlet());
            o.outlet().finish(o.result());
        }
    }

    private void endAll() {
        local.values().forEach(this::end);
    }

    @PreDestroy
    void shutdown() {
        scheduler.shutdownNow();
        endAll();
    }
}
