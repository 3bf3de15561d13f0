package dev.quaestor.identity;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
import io.quarkus.oidc.runtime.TenantConfigBean;
import io.quarkus.oidc.runtime.TenantConfigContext;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * The connection to the identity provider: its discovery document and keys, without which no bearer token can be
 * checked. When they could not be loaded at start-up (an issuer down, or slow past its connection timeout), they are
 * loaded again by one attempt at a time ({@code quaestor.identity.issuer-retry} apart, and at once when a request
 * finds them missing), never by each request; meanwhile a request that needs a token checked (/mcp, /audit, /admin) is
 * answered at once with 503 and {@code Retry-After}, on record as {@code AUTHENTICATION} {@code issuer-unavailable}
 * (bounded per address and in total like every refused authentication), instead of waiting on the issuer.
 */
@ApplicationScoped
public class IssuerConnection {

    private static final Logger LOG = Logger.getLogger(IssuerConnection.class);
    /** After the throttle (995), before authentication (200). */
    private static final int PRIORITY = 990;
    /** An attempt that has not ended by then is given up (the OIDC client's own timeouts normally end it first). */
    private static final Duration ATTEMPT_BOUND = Duration.ofSeconds(60);

    private final TenantConfigBean tenants;
    private final UnauthenticatedThrottle throttle;
    private final AtomicBoolean connecting = new AtomicBoolean();

    IssuerConnection(TenantConfigBean tenants, UnauthenticatedThrottle throttle) {
        this.tenants = tenants;
        this.throttle = throttle;
    }

    /** Whether bearer tokens can be checked: the default tenant has its discovery and keys (or is off). */
    public boolean ready() {
        TenantConfigContext tenant = tenants.getDefaultTenant();
        return tenant == null || tenant.ready() || !tenant.oidcConfig().tenantEnabled();
    }

    void started(@Observes StartupEvent event) {
        TenantConfigContext tenant = tenants.getDefaultTenant();
        if (tenant != null && tenant.ready() && tenant.provider() != null && tenant.provider().getMetadata() != null) {
            String named = tenant.provider().getMetadata().get("issuer"); // as the document says, not as configured
            String expected = tenant.oidcConfig().token().issuer().orElse(null);
            if (named != null && expected != null && !named.equals(expected)) {
                LOG.errorf("the issuer's discovery document names itself %s, not %s (QUAESTOR_OIDC_ISSUER): its tokens are"
                        + " refused; set QUAESTOR_OIDC_ISSUER to the name the issuer gives itself", named, expected);
            }
        }
        if (!ready()) {
            LOG.warn("the identity provider's discovery and keys could not be loaded at start-up; requests that need a"
                    + " token checked get 503 until they are");
            connect();
        }
    }

    @Scheduled(every = "${quaestor.identity.issuer-retry:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void retry() {
        if (!ready()) {
            connect();
        }
    }

    /** Starts one attempt to load discovery and keys, unless one is under way. */
    private void connect() {
        if (!connecting.compareAndSet(false, true)) {
            return;
        }
        tenants.getDefaultTenant().initialize().ifNoItem().after(ATTEMPT_BOUND).fail().subscribe().with(
                context -> {
                    connecting.set(false);
                    if (ready()) {
                        LOG.info("the identity provider's discovery and keys are loaded: bearer tokens are checked again");
                    }
                },
                failure -> {
                    connecting.set(false);
                    LOG.warnf("the identity provider's discovery and keys could not be loaded: %s", failure.toString());
                });
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    private void filter(RoutingContext rc) {
        if (!TokenDoors.recorded(rc.request().path()) || ready()) {
            rc.next();
            return;
        }
        connect();
        String ip = SourceAddress.of(rc.request());
        RecordedRefusal record;
        try {
            record = throttle.record(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next())
                    .caller(Caller.anonymous(ip, rc.request().getHeader("User-Agent"), rc.request().getHeader("Mcp-Session-Id")))
                    .method(rc.request().method().name() + " " + rc.request().path()).decision("DENY")
                    .outcome("issuer-unavailable").build(), ip);
        } catch (AuditUnavailableException e) {
            unavailable(rc, null);
            return;
        }
        Context here = Vertx.currentContext();
        record.committed().whenComplete((v, e) -> here.runOnContext(x -> unavailable(rc, e == null ? record.requestId() : null)));
    }

    private static void unavailable(RoutingContext rc, String requestId) {
        if (rc.response().ended() || rc.response().closed()) {
            return;
        }
        if (requestId != null) {
            rc.response().putHeader("X-Request-Id", requestId);
        }
        String why = "Service unavailable: the identity provider cannot be reached to check tokens";
        String id = requestId == null ? "" : "\"requestId\":\"" + requestId + "\"";
        // A JSON-RPC error on /mcp; on the staff APIs their own shape of error.
        rc.response().setStatusCode(503).putHeader("Retry-After", "5").putHeader("Content-Type", "application/json")
                .end(TokenDoors.mcp(rc.request().path())
                        ? "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32005,\"message\":\"" + why + "\",\"data\":{" + id + "}}}"
                        : "{\"error\":\"" + why + "\"" + (id.isEmpty() ? "" : "," + id) + "}");
    }

}
