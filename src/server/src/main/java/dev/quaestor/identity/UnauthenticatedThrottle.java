package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.Caller;
import dev.quaestor.audit.RequestIds;
import io.github.bucket4j.Bucket;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Limits refused authentication per source address, ahead of the token check. Every 401 from
 * /mcp spends a token of the address's bucket; once it is empty, further requests from that
 * address are turned away with 429 before any signature is checked, so a flood of bad tokens can
 * neither burn CPU nor fill the audit log: {@link RefusedAttempts} records the first and counts the
 * rest into one summary per address and minute.
 *
 * <p>A caller whose token this replica accepted recently is let through to the normal checks
 * even from a throttled address (many agents may share one NAT address with a broken one). The
 * buckets are per replica on purpose: they guard this replica's CPU and cost no network call.
 */
@ApplicationScoped
public class UnauthenticatedThrottle {

    /** Above authentication (200) and below the Host/Origin guard (1000). */
    private static final int PRIORITY = 950;

    private final AuditLog audit;
    private final long capacity;
    private final Duration period;
    private final Cache<String, Bucket> buckets;
    private final Cache<TokenFingerprint, Boolean> acceptedTokens = Caffeine.newBuilder()
            .maximumSize(100_000).expireAfterWrite(Duration.ofMinutes(5)).build();
    private final RefusedAttempts refused;

    UnauthenticatedThrottle(IdentityConfig config, AuditLog audit) {
        this.audit = audit;
        this.refused = new RefusedAttempts(audit, config.unauthenticatedLimit().summaryWindow());
        this.capacity = config.unauthenticatedLimit().capacity();
        this.period = config.unauthenticatedLimit().period();
        this.buckets = Caffeine.newBuilder().maximumSize(100_000).expireAfterAccess(period.multipliedBy(2)).build();
    }

    /** Open windows are summarized before the audit writer stops (it stops at priority 1). */
    void stop(@Observes @jakarta.annotation.Priority(0) io.quarkus.runtime.ShutdownEvent ev) {
        refused.closeAll();
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
        var addr = rc.request().remoteAddress();
        String ip = addr == null ? "unknown" : addr.hostAddress();
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

    private void reject(RoutingContext rc, String ip, Bucket bucket) {
        long wait = bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill();
        long seconds = Math.max(1, (wait + 999_999_999L) / 1_000_000_000L);
        refused.refused(ip, rc.request().getHeader("User-Agent"), rc.request().method().name() + " " + rc.request().path());
        rc.response().setStatusCode(429)
                .putHeader("Retry-After", Long.toString(seconds))
                .putHeader("Content-Type", "application/json")
                .end("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32004,\"message\":"
                        + "\"Too many refused authentications from this address\",\"data\":{\"retryAfterSeconds\":"
                        + seconds + "}}}");
    }
}
