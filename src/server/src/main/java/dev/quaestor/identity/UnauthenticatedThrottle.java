package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditUnavailableException;
import dev.quaestor.audit.Caller;
import dev.quaestor.audit.RecordedRefusal;
import dev.quaestor.audit.RefusalRecorder;
import dev.quaestor.audit.RequestIds;
import dev.quaestor.http.SourceAddress;
import io.github.bucket4j.Bucket;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Objects;

/**
 * Limits refused authentication per source address, ahead of the token check. Every 401 from
 * /mcp spends a token of the address's bucket; once it is empty, further requests from that
 * address are turned away with 429 before any signature is checked, so a flood of bad tokens can
 * neither burn CPU nor fill the audit log: the requests turned away are counted into one
 * {@code ATTEMPT_SUMMARY} per address and merge window ({@link RefusalRecorder#merge}), and each is
 * answered once the summary counting it has committed, with its request id. No count is held only in
 * memory once it has been answered.
 *
 * <p>A caller whose token this replica accepted recently is let through to the normal checks
 * even from a throttled address (many agents may share one NAT address with a broken one). The
 * buckets are per replica on purpose: they guard this replica's CPU and cost no network call.
 */
@ApplicationScoped
public class UnauthenticatedThrottle {

    /**
     * After the Host/Origin guard (1000), before authentication (200), the body reader (50) and the admission limit
     * (40): a request turned away here never has its body read or takes a place in flight.
     */
    private static final int PRIORITY = 995;

    private final RefusalRecorder refusals;
    private final long capacity;
    private final Duration period;
    private final Cache<String, Bucket> buckets;
    private final Cache<TokenFingerprint, Boolean> acceptedTokens = Caffeine.newBuilder()
            .maximumSize(100_000).expireAfterWrite(Duration.ofMinutes(5)).build();

    UnauthenticatedThrottle(IdentityConfig config, RefusalRecorder refusals) {
        this.refusals = refusals;
        this.capacity = config.unauthenticatedLimit().capacity();
        this.period = config.unauthenticatedLimit().period();
        this.buckets = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(period.multipliedBy(2)).build();
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        String path = rc.request().path();
        if (!path.equals("/mcp") && !path.startsWith("/mcp/")) {
            rc.next();
            return;
        }
        String ip = Objects.requireNonNullElse(SourceAddress.of(rc.request()), "unknown");
        String auth = rc.request().getHeader("Authorization");
        TokenFingerprint tokenHash = auth == null ? null : TokenFingerprint.of(auth);
        boolean known = tokenHash != null && acceptedTokens.getIfPresent(tokenHash) != null;
        Bucket bucket = buckets.get(ip, k -> Bucket.builder()
                .addLimit(l -> l.capacity(capacity).refillGreedy(capacity, period)).build());
        if (!known && bucket.getAvailableTokens() <= 0) {
            reject(rc, ip, bucket);
            return;
        }
        rc.addHeadersEndHandler(v -> {
            int status = rc.response().getStatusCode();
            if (status == 401) {
                bucket.tryConsume(1);
            } else if (tokenHash != null && status < 400) {
                acceptedTokens.put(tokenHash, Boolean.TRUE);
            }
        });
        rc.next();
    }

    /** 429, once the summary counting this request has committed (on the request's own event loop). */
    private void reject(RoutingContext rc, String ip, Bucket bucket) {
        long wait = bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill();
        long seconds = Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
        RecordedRefusal record;
        try {
            record = refusals.merge(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next())
                    .caller(Caller.anonymous(ip, rc.request().getHeader("User-Agent"), null))
                    .method(rc.request().method().name() + " " + rc.request().path()).decision("DENY").outcome("throttled")
                    .errorCode(-32004).build());
        } catch (AuditUnavailableException e) {
            unrecorded(rc);
            return;
        }
        Context here = Vertx.currentContext();
        record.committed().whenComplete((v, e) -> here.runOnContext(x -> {
            if (e == null) {
                tooMany(rc, seconds, record.requestId());
            } else {
                unrecorded(rc);
            }
        }));
    }

    private static void tooMany(RoutingContext rc, long seconds, String requestId) {
        if (rc.response().ended() || rc.response().closed()) {
            return; // the client left while its refusal was being recorded: it is counted all the same
        }
        rc.response().setStatusCode(429)
                .putHeader("Retry-After", Long.toString(seconds))
                .putHeader("X-Request-Id", requestId)
                .putHeader("Content-Type", "application/json")
                .end("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32004,\"message\":"
                        + "\"Too many refused authentications from this address\",\"data\":{\"retryAfterSeconds\":"
                        + seconds + ",\"requestId\":\"" + requestId + "\"}}}");
    }

    private static void unrecorded(RoutingContext rc) {
        if (rc.response().ended() || rc.response().closed()) {
            return;
        }
        rc.response().setStatusCode(503).putHeader("Retry-After", "5").putHeader("Content-Type", "application/json")
                .end("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32005,\"message\":"
                        + "\"Service unavailable: the audit log cannot record this request\",\"data\":{}}}");
    }
}
