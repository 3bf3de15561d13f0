package dev.quaestor.pipeline;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.refusals.RefusalRecorder;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.ratelimit.RateLimiter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.function.Supplier;

/**
 * Opens a {@link Trail} for each request that enters the request path, and holds what every trail writes to and asks
 * of: the policy in force, the rate limiter, the audit log, metrics and stage spans.
 */
@ApplicationScoped
public class Trails {

    final Supplier<PolicySet> policies;
    final RateLimits limits;
    final AuditSink audit;
    final PipelineMetrics metrics;
    final StageSpans spans;

    @Inject
    Trails(PolicyStore policies, RateLimiter limiter, AuditLog audit, RefusalRecorder refusals, PipelineMetrics metrics,
            StageSpans spans) {
        this(policies::current, limiter::check, AuditSink.of(audit, refusals), metrics, spans);
    }

    Trails(Supplier<PolicySet> policies, RateLimits limits, AuditSink audit, PipelineMetrics metrics, StageSpans spans) {
        this.policies = policies;
        this.limits = limits;
        this.audit = audit;
        this.metrics = metrics;
        this.spans = spans;
    }

    /**
     * A request entering the path now, under the policy in force now for all of it.
     *
     * @param action the policy action of a resource method; null for another (nothing is then limited or counted)
     */
    Trail open(RequestContext ctx, String method, Action action) {
        return new Trail(this, ctx, method, action);
    }
}
