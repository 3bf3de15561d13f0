package dev.quaestor.policy;

import java.util.List;
import java.util.stream.Collectors;

/** A policy set that was refused as a whole, with every problem found. */
public class PolicyValidationException extends RuntimeException {

    private final List<PolicyError> errors;

    public PolicyValidationException(List<PolicyError> errors) {
        super("policy set rejected: " + errors.stream().map(PolicyError::toString).collect(Collectors.joining("; ")));
        this.errors = List.copyOf(errors);
    }

    public List<PolicyError> errors() {
        return errors;
    }
}
