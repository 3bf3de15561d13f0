package dev.quaestor.admin;

import dev.quaestor.policy.PolicyChange;
import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyStore;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports the active policy revision. A refused set leaves the server serving under the last good
 * one, so the check stays UP (taking replicas out of service would not help) but says
 * {@code state: degraded} with the refusal's errors until a valid set arrives.
 */
@Readiness
@ApplicationScoped
public class PolicyHealthCheck implements HealthCheck {

    private final PolicyStore store;

    PolicyHealthCheck(PolicyStore store) {
        this.store = store;
    }

    @Override
    public HealthCheckResponse call() {
        var set = store.current();
        var b = HealthCheckResponse.named("policy").up()
                .withData("revision", set.revision())
                .withData("rules", set.rules().size())
                .withData("files", String.join(",", set.files()));
        PolicyChange refusal = store.refusal();
        if (refusal == null) {
            return b.withData("state", "ok").build();
        }
        return b.withData("state", "degraded")
                .withData("rejectedRevision", refusal.candidateRevision())
                .withData("rejectedAt", refusal.time().toString())
                .withData("error", refusal.errors().stream().map(PolicyError::toString).collect(Collectors.joining("; ")))
                .build();
    }
}
