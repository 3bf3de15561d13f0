package dev.quaestor.admin;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness of the policy engine: UP as soon as a policy set is active, which is before the server takes traffic.
 * A refused set leaves the server serving under the last good one, so the check stays UP (taking replicas out of
 * service would not help). Readiness is public (the kubelet probes it by pod IP, without a token), so it says
 * nothing more: the active revision, its files and a refusal's errors are for administrators, at
 * {@code /admin/policy}, and in the {@code quaestor_policy_degraded} gauge.
 */
@Readiness
@ApplicationScoped
public class PolicyHealthCheck implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("policy").up().build();
    }
}
