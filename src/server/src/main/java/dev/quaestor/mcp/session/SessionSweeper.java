package dev.quaestor.mcp.session;

import dev.quaestor.subscription.SubscriptionStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Keeps the session tables bounded however many clients come and go: every
 * {@code quaestor.sessions.sweep-interval} it removes sessions that expired (idle past
 * {@code quaestor.sessions.idle-timeout}, or past their latest token's expiry), each with a
 * {@code SESSION_CLOSE} record committed before its row is deleted, then the rows of sessions ended by
 * DELETE, then every subscription whose session is gone. Batches of {@value #BATCH} rows, one
 * transaction each; replicas sweeping at once skip each other's rows.
 */
@Startup
@ApplicationScoped
public class SessionSweeper {

    private static final Logger LOG = Logger.getLogger(SessionSweeper.class);
    static final int BATCH = 1000;

    /** What one sweep removed and what it cost. */
    public record Report(int expired, int ended, long subscriptions, long millis) {
        boolean removedAny() {
            return expired > 0 || ended > 0 || subscriptions > 0;
        }
    }

    private final SessionStore sessions;
    private final SubscriptionStore subscriptions;
    private final SessionAudit audit;
    private final ScheduledExecutorService scheduler;
    private final Timer timer;
    private final Counter removed;

    SessionSweeper(SessionStore sessions, SubscriptionStore subscriptions, SessionAudit audit, SessionConfig config,
            MeterRegistry metrics) {
        this.sessions = sessions;
        this.subscriptions = subscriptions;
        this.audit = audit;
        this.timer = Timer.builder("quaestor.sessions.sweep").description("Sweeps of expired and ended MCP sessions")
                .register(metrics);
        this.removed = Counter.builder("quaestor.sessions.removed")
                .description("MCP session rows deleted by the sweep (expired or ended)").register(metrics);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "quaestor-session-sweep");
            t.setDaemon(true);
            return t;
        });
        long every = Math.max(100, config.sweepInterval().toMillis());
        scheduler.scheduleWithFixedDelay(this::sweepSafely, every, every, TimeUnit.MILLISECONDS);
    }

    private void sweepSafely() {
        try {
            Report r = sweep();
            if (r.removedAny()) {
                LOG.infof("session sweep: %d expired and %d ended sessions, %d subscriptions removed in %d ms",
                        r.expired(), r.ended(), r.subscriptions(), r.millis());
            }
        } catch (RuntimeException e) {
            // The database or the audit log cannot answer: nothing was deleted unrecorded; the next sweep tries again.
            LOG.warnf("session sweep failed: %s", e.toString());
        }
    }

    /** One sweep, now (the scheduler runs it; a test may too). */
    public synchronized Report sweep() {
        long start = System.nanoTime();
        int expired = 0;
        while (true) {
            int n = sessions.removeExpired(Instant.now(), BATCH, audit::expired).size();
            expired += n;
            if (n < BATCH) {
                break;
            }
        }
        int ended = sessions.purgeEnded();
        long subs = subscriptions.removeOrphans();
        long nanos = System.nanoTime() - start;
        timer.record(nanos, TimeUnit.NANOSECONDS);
        removed.increment(expired + ended);
        return new Report(expired, ended, subs, TimeUnit.NANOSECONDS.toMillis(nanos));
    }

    @PreDestroy
    void stop() {
        scheduler.shutdownNow();
    }
}
