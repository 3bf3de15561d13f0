package dev.quaestor.mcp.transport;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.SubjectSlots;
import dev.quaestor.mcp.limits.TransportConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Bounds the MCP requests this replica works on at once ({@code quaestor.http.max-in-flight}), and what one subject
 * may hold of them ({@code quaestor.limits.per-subject.in-flight}, at most {@code in-flight-share} of the bound): every
 * POST, GET and DELETE, so that no request looks a session up in the database without a place. A request takes its
 * place only once its token is verified and its body, if any, fully read ({@link RequestBodyReader} runs first), so a
 * client that sends its body slowly holds no place. Past a bound the request is turned away at once on the I/O thread,
 * before any work is queued: 503 / -32005 at the replica's bound, 429 / -32004 at the subject's, and 503 / -32005
 * while the subject's records waiting for the audit log are at its share of the queue ({@link AuditLog#atQueueShare});
 * each with Retry-After, on record ({@link CapRefusals}) and counted in {@code quaestor.limits.refused} (the replica's
 * bound also in {@code quaestor.http.shed}).
 *
 * <p>Long-lived streams do not hold a place: a GET gives its place back once its session's stream is open, and a
 * {@code subscriptions/listen} POST once its stream is ({@link #release}); streams have caps of their own. Over HTTP/2
 * a POST's body is read by the endpoint's worker, which then asks here ({@link #admit}).
 */
@ApplicationScoped
public class AdmissionLimit {

    private static final Logger LOG = Logger.getLogger(AdmissionLimit.class);
    /** After authentication (200), authorization (100) and the body reader (50). */
    private static final int PRIORITY = 40;
    private static final String HELD = "quaestor.admission.held";

    /** A place held by one request, given back once. */
    private static final class Held extends AtomicBoolean {
        final String key;

        Held(String key) {
            super(true);
            this.key = key;
        }
    }

    private final int bound;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final SubjectSlots perSubject;
    private final AtomicLong lastLog = new AtomicLong();
    private final Counter shed;
    private final AuditLog audit;
    private final CapRefusals refusals;

    AdmissionLimit(TransportConfig config, SubjectLimitsConfig limits, AuditLog audit, CapRefusals refusals,
            MeterRegistry metrics) {
        this.bound = config.maxInFlight();
        this.perSubject = new SubjectSlots(subjectCap(bound, limits));
        this.audit = audit;
        this.refusals = refusals;
        this.shed = Counter.builder("quaestor.http.shed")
                .description("MCP requests turned away because the replica was at quaestor.http.max-in-flight")
                .register(metrics);
        Gauge.builder("quaestor.http.in-flight", inFlight, AtomicInteger::get)
                .description("MCP requests in flight (at most quaestor.http.max-in-flight)").register(metrics);
    }

    /** A subject's cap: its configured number, never more than its share of the replica's bound (at least 1). */
    static int subjectCap(int bound, SubjectLimitsConfig limits) {
        double share = limits.inFlightShare();
        if (!(share > 0 && share <= 1)) {
            throw new IllegalArgumentException("quaestor.limits.per-subject.in-flight-share must be more than 0 and at most 1, not "
                    + share);
        }
        return Math.max(1, Math.min(limits.inFlight(), (int) Math.floor(bound * share)));
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        if (!admitsHere(rc)) {
            rc.next();
            return;
        }
        Identity identity = refusals.identity(rc);
        Cap refused = admit(rc, identity);
        if (refused != null) {
            // The body read is let go now: the answer may wait for its record (a merged summary's commit), and a fast
            // sender's bodies would otherwise be held for that long, beyond any cap.
            rc.remove(RequestBodyReader.BODY);
            refusals.send(rc, refused, CapRefusals.caller(identity, rc), detail(refused), false);
            return;
        }
        rc.next();
    }

    /** Whether this filter admits the request: a GET or DELETE, or a POST whose body has been read (HTTP/1.x). */
    private static boolean admitsHere(RoutingContext rc) {
        if (!McpEndpoint.handles(rc.request().path())) {
            return false;
        }
        HttpMethod method = rc.request().method();
        return method == HttpMethod.GET || method == HttpMethod.DELETE
                || method == HttpMethod.POST && rc.request().version() != HttpVersion.HTTP_2;
    }

    /**
     * Takes a place in flight for this request, given back when its response ends (or by {@link #release}); or the
     * cap that refuses it (nothing taken, nothing recorded yet). A request holding a place already keeps it.
     */
    Cap admit(RoutingContext rc, Identity identity) {
        if (rc.get(HELD) != null) {
            return null;
        }
        if (identity != null && audit.atQueueShare(identity.subject())) {
            return Cap.AUDIT_QUEUE;
        }
        String key = CapRefusals.key(identity, rc);
        if (!perSubject.tryTake(key)) {
            return Cap.IN_FLIGHT;
        }
        if (inFlight.incrementAndGet() > bound) {
            inFlight.decrementAndGet();
            perSubject.release(key);
            shed.increment();
            long now = System.nanoTime();
            long last = lastLog.get();
            if (now - last > 60_000_000_000L && lastLog.compareAndSet(last, now)) {
                LOG.warnf("%d MCP requests in flight (quaestor.http.max-in-flight): turning further ones away with -32005", bound);
            }
            return Cap.SHED;
        }
        Held held = new Held(key);
        rc.put(HELD, held);
        rc.addEndHandler(done -> release(held));
        return null;
    }

    /** What the record of a refusal at {@code cap} says of the bound. */
    String detail(Cap cap) {
        return switch (cap) {
            case IN_FLIGHT -> "at most " + perSubject.cap() + " requests of one subject in flight";
            case SHED -> "at most " + bound + " requests in flight";
            case AUDIT_QUEUE -> "the subject's records waiting in the audit queue are at its share";
            default -> null;
        };
    }

    /** Gives back the place of a request whose answer is a long-lived stream, or a streamed answer that broke off. */
    void release(RoutingContext rc) {
        Held held = rc.get(HELD);
        if (held != null) {
            release(held);
        }
    }

    private void release(Held held) {
        if (held.compareAndSet(true, false)) {
            inFlight.decrementAndGet();
            perSubject.release(held.key);
        }
    }
}
