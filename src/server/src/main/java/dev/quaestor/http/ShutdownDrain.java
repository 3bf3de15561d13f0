package dev.quaestor.http;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Ends what would otherwise hold a stopping replica open. On SIGTERM Quarkus first waits out
 * {@code quarkus.shutdown.delay} (readiness is down, requests are still served, so that the load balancer
 * stops sending new ones), then waits up to {@code quarkus.shutdown.timeout} for the requests in flight. An
 * event stream is a request that never ends by itself: without this, every open stream held the replica for
 * the whole timeout and was then cut off. The hooks registered here run when the delay is over, so that a
 * stream still delivers during the delay and then ends the way its revision ends it, and the client
 * reconnects to a replica that stays.
 */
@ApplicationScoped
public class ShutdownDrain {

    private static final Logger LOG = Logger.getLogger(ShutdownDrain.class);

    private final Duration delay;
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();

    ShutdownDrain(@ConfigProperty(name = "quarkus.shutdown.delay") Optional<Duration> delay) {
        this.delay = delay.orElse(Duration.ZERO);
    }

    /** Runs {@code hook} once, when the shutdown delay is over and before Quarkus waits for open requests. */
    public void atDrain(Runnable hook) {
        hooks.add(hook);
    }

    void delayBegins(@Observes ShutdownDelayInitiatedEvent event) {
        // Observed on the shutdown thread, which then sleeps the delay itself: the hooks run on a thread of their own.
        Thread t = new Thread(this::drainAfterDelay, "quaestor-shutdown-drain");
        t.setDaemon(true);
        t.start();
    }

    private void drainAfterDelay() {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Runnable hook : hooks) {
            try {
                hook.run();
            } catch (RuntimeException e) {
                LOG.warnf("ending open streams at shutdown failed: %s", e.toString());
            }
        }
    }
}
