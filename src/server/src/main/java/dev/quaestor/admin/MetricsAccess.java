package dev.quaestor.admin;

import dev.quaestor.identity.IdentityMapper;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityPolicy;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Who may scrape {@code /q/metrics}: a token holding the metrics role or the administrator's role
 * ({@code quaestor.admin.metrics-role}, {@code quaestor.admin.role}), roles read as every other door reads them
 * ({@code quaestor.identity.roles-claims}). The labels hold no URI, subject or client, but the counts say how often
 * reads are refused and which mounts fail: an AI client's token has no business with them. No token: 401, as
 * everywhere; a token without the role: 403. {@code quaestor.admin.staff-clients} does not apply (Prometheus is a
 * client of its own). Scrapes are not audited (one every few seconds from each Prometheus).
 */
@ApplicationScoped
public class MetricsAccess implements HttpSecurityPolicy {

    private final IdentityMapper identities;
    private final Set<String> roles;

    MetricsAccess(IdentityMapper identities, AdminConfig config) {
        this.identities = identities;
        this.roles = Set.copyOf(java.util.List.of(config.metricsRole(), config.role())); // the two may be one role
    }

    @Override
    public Uni<CheckResult> checkPermission(RoutingContext request, Uni<SecurityIdentity> identity,
            AuthorizationRequestContext context) {
        return identity.map(this::check);
    }

    private CheckResult check(SecurityIdentity security) {
        if (security == null || security.isAnonymous()) {
            return CheckResult.DENY;
        }
        try {
            for (String role : identities.of(security).roles()) {
                if (roles.contains(role)) {
                    return CheckResult.PERMIT;
                }
            }
        } catch (RuntimeException unmappable) {
            // a token without a subject claim maps to no caller: refused, as on every other door
        }
        return CheckResult.DENY;
    }

    @Override
    public String name() {
        return "metrics";
    }
}
