package dev.quaestor.mcp;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Bounds the MCP POSTs this replica works on at once ({@code quaestor.http.max-in-flight}). Past
 * the bound a request is turned away at once on the I/O thread with 503 and -32005 (Retry-After:
 * 1), before its token is checked or any work queued, so an overloaded server answers quickly
 * instead of letting every request wait in an unbounded queue. Nothing has been decided or served
 * for such a request, so it leaves no audit record; it is counted in {@code quaestor.http.shed}
 * and logged at most once a minute. Long-lived GET streams are not counted, and a
 * {@code subscriptions/listen} POST gives its place back once its stream is open ({@link #release}).
 */
@ApplicationScoped
public class AdmissionLimit {

    private static final Logger LOG = Logger.getLogger(AdmissionLimit.class);
    /**
     * Ahead of authentication (200); behind the unauthenticated throttle (995), whose refusals, waiting for their
     * summary to commit, must hold no place.
     */
    private static final int PRIORITY = 990;
    private static final String HELD = "quaestor.admission.held";
    private static final String BODY = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32005,"
            + "\"message\":\"Service unavailable: the server is at its bound of requests in flight\",\"data\":{}}}";

    private final int bound;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicLong lastLog = new AtomicLong();
    private final Counter shed;

    AdmissionLimit(TransportConfig config, MeterRegistry metrics) {
        this.bound = config.maxInFlight();
        this.shed = Counter.builder("quaestor.http.shed")
                .description("MCP requests turned away because the replica was at quaestor.http.max-in-flight")
                .register(metrics);
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        if (rc.request().method() != HttpMethod.POST || !McpEndpoint.handles(rc.request().path())) {
            rc.next();
            return;
        }
        if (inFlight.incrementAndGet() > bound) {
            inFlight.decrementAndGet();
            shed.increment();
            long now = System.nanoTime();
            long last = lastLog.get();
            if (now - last > 60_000_000_000L && lastLog.compareAndSet(last, now)) {
                LOG.warnf("%d MCP requests in flight (quaestor.http.max-in-flight): turning further ones away with -32005", bound);
            }
            rc.response().setStatusCode(503).putHeader("Retry-After", "1").putHeader("Content-Type", "application/json")
                    .end(BODY);
            return;
        }
        var held = new java.util.concurrent.atomic.AtomicBoolean(true);
        rc.put(HELD, held);
        rc.addEndHandler(done -> release(held));
        rc.next();
    }

    /** Gives back the place of a request whose answer is a long-lived stream (its work is done). */
    void release(RoutingContext rc) {
        java.util.concurrent.atomic.AtomicBoolean held = rc.get(HELD);
        if (held != null) {
            release(held);
        }
    }

    private void release(java.util.concurrent.atomic.AtomicBoolean held) {
        if (held.compareAndSet(true, false)) {
            inFlight.decrementAndGet();
        }
    }
}
