package dev.quaestor.policy;

import java.time.Instant;
import java.util.List;

/**
 * Fired (as a CDI event) when a policy set is activated or refused, so that others can audit and
 * report it without the policy engine knowing about them.
 *
 * @param activeRevision the revision in force after the change
 * @param candidateRevision the revision that was tried
 * @param errors why it was refused; empty when activated
 */
public record PolicyChange(Instant time, boolean activated, String activeRevision, String candidateRevision,
        List<PolicyError> errors, int rules) {

    public PolicyChange {
        errors = List.copyOf(errors);
    }
}
