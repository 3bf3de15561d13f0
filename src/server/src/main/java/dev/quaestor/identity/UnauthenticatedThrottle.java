package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.refusals.RefusalRecorder;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Limits what refused authentication costs, per source address and in total ({@link AddressBudget}), and records
 * every refusal of /mcp before it is answered ({@link #record}): one by one while the budget lasts (spent before the
 * record is written), merged into {@code ATTEMPT_SUMMARY} records past it ({@link RefusalRecorder#merge}).
 *
 * <p>Ahead of the token check, a token that is neither known nor shaped as the issuer's ({@link IssuerTokenShape})
 * is turned away with 429 once its address's budget (or the total) is spent, so a flood of garbage can neither burn
 * CPU nor fill the log; each 429 is counted into a summary and answered once that has committed, with its request id.
 * What is never turned away here, so that one sender cannot lock out everyone behind a shared address: a request
 * without a token (it gets its 401 and {@code WWW-Authenticate}, so a new client can discover the authorization
 * server), a token shaped as the issuer's (its signature is checked), and a token this replica accepted recently.
 * The buckets are per replica on purpose: they guard this replica's CPU and log and cost no network call.
 */
@ApplicationScoped
public class UnauthenticatedThrottle {

    /**
     * After the Host/Origin guard (1000), before authentication (200), the body reader (50) and the admission limit
     * (40): a request turned away here never has its body read or takes a place in flight.
     */
    private static final int PRIORITY = 995;

    private final RefusalRecorder refusals;
    private final AddressBudget budget;
    private final IssuerTokenShape shape;
    private final Cache<TokenFingerprint, Boolean> acceptedTokens = Caffeine.newBuilder()
            .maximumSize(100_000).expireAfterWrite(Duration.ofMinutes(5))
            .executor(Runnable::run) // upkeep on the event loop that reads it: no hand-off to another pool
            .build();

    UnauthenticatedThrottle(IdentityConfig config, RefusalRecorder refusals,
            @ConfigProperty(name = "quarkus.oidc.auth-server-url") Optional<String> issuerUrl,
            @ConfigProperty(name = "quarkus.oidc.token.issuer") Optional<String> tokenIssuer) {
        this.refusals = refusals;
        var limit = config.unauthenticatedLimit();
        this.budget = new AddressBudget(limit.capacity(), limit.totalCapacity(), limit.period());
        this.shape = new IssuerTokenShape(tokenIssuer.filter(i -> !i.equals("any")).or(() -> issuerUrl));
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
        String auth = rc.request().getHeader("Authorization");
        if (auth != null && !auth.isBlank()) {
            TokenFingerprint tokenHash = TokenFingerprint.of(auth);
            boolean known = acceptedTokens.getIfPresent(tokenHash) != null;
            String ip = address(rc);
            if (!known && !shape.matches(auth) && budget.spent(ip)) {
                reject(rc, ip);
                return;
            }
            // A known token is not put again: a write on every request would schedule the cache's upkeep on another
            // thread every time. It is known for 5 minutes from its acceptance, then learned again from its next one.
            if (!known) {
                rc.addHeadersEndHandler(v -> {
                    if (rc.response().getStatusCode() < 400) {
                        acceptedTokens.put(tokenHash, Boolean.TRUE);
                    }
                });
            }
        }
        rc.next();
    }

    /**
     * Records a refused authentication of /mcp: on its own if its address and the total still have a record to spend
     * (spent now, before the record is written), else counted into a summary. Throws {@link AuditUnavailableException}
     * when it cannot be queued.
     */
    public RecordedRefusal record(AuditEvent refusal, String address) {
        String ip = Objects.requireNonNullElse(address, "unknown");
        return budget.spendRecord(ip) ? refusals.alone(refusal) : refusals.merge(refusal, budget::spendSummary);
    }

    private static String address(RoutingContext rc) {
        return Objects.requireNonNullElse(SourceAddress.of(rc.request()), "unknown");
    }

    /** 429, once the summary counting this request has committed (on the request's own event loop). */
    private void reject(RoutingContext rc, String ip) {
        long seconds = budget.secondsToWait(ip);
        RecordedRefusal record;
        try {
            record = refusals.merge(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next())
                    .caller(Caller.anonymous(SourceAddress.of(rc.request()), rc.request().getHeader("User-Agent"), null))
                    .method(rc.request().method().name() + " " + rc.request().path()).decision("DENY").outcome("throttled")
                    .errorCode(-32004).build(), budget::spendSummary);
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
