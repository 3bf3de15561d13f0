package dev.quaestor.mcp.session;

import dev.quaestor.http.ShutdownDrain;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.SubjectCapReached;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.SubjectSlots;
import dev.quaestor.subscription.ChangeNotifier;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.SubscriptionConfig;
import io.smallrye.mutiny.Multi;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The GET streams open on this replica, one per session. A session has one stream across all
 * replicas: opening a new one records it in the session row, and the replica holding an older one
 * closes it at its next check (at once if it is this replica). Streams also end when the session
 * is deleted (on any replica: seen at the next check), when the token that opened them expires,
 * and when the client goes away, and when this replica stops ({@link ShutdownDrain}). Every stream gets a keep-alive comment every
 * {@code quaestor.subscriptions.keep-alive}.
 */
@ApplicationScoped
public class EventStreams {

    private static final Logger LOG = Logger.getLogger(EventStreams.class);

    private record Open(String streamId, SseOutlet outlet, Instant expiresAt, String subject) {
    }

    private final SessionStore sessions;
    private final ChangeNotifier notifier;
    private final Map<String, Open> local = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final ScheduledExecutorService scheduler;

    private final SubjectSlots perSubject;

    EventStreams(SessionStore sessions, ChangeNotifier notifier, SubscriptionConfig config, SubjectLimitsConfig limits,
            ShutdownDrain drain) {
        this.perSubject = new SubjectSlots(limits.streams());
        this.sessions = sessions;
        this.notifier = notifier;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-streams");
            t.setDaemon(true);
            return t;
        });
        long keepAlive = Math.max(100, config.keepAlive().toMillis());
        long check = Math.max(100, config.streamCheckInterval().toMillis());
        scheduler.scheduleWithFixedDelay(this::keepAlive, keepAlive, keepAlive, TimeUnit.MILLISECONDS);
        scheduler.scheduleWithFixedDelay(this::check, check, check, TimeUnit.MILLISECONDS);
        drain.atDrain(this::closeAll);
    }

    /**
     * Opens the session's stream, replacing any older one. Blocking (database, and the first
     * stream starts the providers' watchers). A subject holds at most {@code quaestor.limits.per-subject.streams}
     * streams on this replica: past it, {@link SubjectCapReached} and nothing is opened (a stream that replaces one
     * of the same session here is always let in, since the older one ends).
     */
    public Multi<OutboundSseEvent> open(String sessionId, String subject, StreamHolder who, Instant tokenExpiry, Sse sse) {
        if (local.containsKey(sessionId)) {
            perSubject.take(subject);
        } else if (!perSubject.tryTake(subject)) {
            throw new SubjectCapReached(Cap.STREAMS, perSubject.cap());
        }
        try {
            return start(sessionId, subject, who, tokenExpiry, sse);
        } catch (RuntimeException e) {
            perSubject.release(subject);
            throw e;
        }
    }

    private Multi<OutboundSseEvent> start(String sessionId, String subject, StreamHolder who, Instant tokenExpiry, Sse sse) {
        byte[] raw = new byte[18];
        random.nextBytes(raw);
        String streamId = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
        sessions.claimStream(sessionId, streamId);
        var outlet = new SseOutlet(sessionId, who, sse);
        var open = new Open(streamId, outlet, tokenExpiry, subject);
        Open previous = local.put(sessionId, open);
        notifier.attach(outlet);
        if (previous != null) {
            previous.outlet().close();
        }
        var released = new java.util.concurrent.atomic.AtomicBoolean();
        return outlet.events(() -> {
            local.remove(sessionId, open);
            notifier.detach(outlet);
            if (released.compareAndSet(false, true)) {
                perSubject.release(subject);
            }
        });
    }

    /** Closes the session's stream on this replica, if it holds one. */
    public void close(String sessionId) {
        Open o = local.remove(sessionId);
        if (o != null) {
            notifier.detach(o.outlet());
            o.outlet().close();
        }
    }

    private void keepAlive() {
        local.values().forEach(o -> o.outlet().keepAlive());
    }

    /**
     * Ends streams whose token expired, or whose session ended or moved to a newer stream; records the use of
     * the sessions whose streams stay open (an open stream is not idleness).
     */
    private void check() {
        if (local.isEmpty()) {
            return;
        }
        // Expiry needs no database, so it holds even while the session lookup below fails.
        Instant now = Instant.now();
        local.forEach((sessionId, o) -> {
            if (o.expiresAt() != null && now.isAfter(o.expiresAt())) {
                end(sessionId, o);
            }
        });
        // Streams as they were before the lookup: one opened during it has already claimed its session.
        Map<String, Open> snapshot = Map.copyOf(local);
        try {
            Map<String, String> owners = sessions.streamOwners(List.copyOf(snapshot.keySet()));
            var kept = new java.util.ArrayList<String>();
            snapshot.forEach((sessionId, o) -> {
                if (!o.streamId().equals(owners.get(sessionId))) {
                    end(sessionId, o);
                } else {
                    kept.add(sessionId);
                }
            });
            sessions.keepAlive(kept);
        } catch (RuntimeException e) {
            LOG.warnf("cannot check the sessions of open streams: %s", e.toString());
        }
    }

    private void end(String sessionId, Open o) {
        if (local.remove(sessionId, o)) {
            notifier.detach(o.outlet());
            o.outlet().close();
        }
    }

    private void closeAll() {
        local.keySet().forEach(this::close);
    }

    @PreDestroy
    void shutdown() {
        scheduler.shutdownNow();
        closeAll();
    }
}
