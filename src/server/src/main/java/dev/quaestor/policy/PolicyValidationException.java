package dev.quaestor.policy;

import java.util.List;
import java.util.stream.Collectors;

/** A policy set that was refused as a whole, with every problem found. */
public class PolicyValidationException extends RuntimeException {

    private final List<PolicyError> errors;

    /**
     * The most problems listed: past them, one more line says how many were left out. A file with the same mistake on
     * every one of 5,000 rules would otherwise make an answer, a log line and a record of megabytes.
     */
    static final int LISTED = 100;

    public PolicyValidationException(List<PolicyError> errors) {
        this(listed(errors), null);
    }

    private PolicyValidationException(List<PolicyError> listed, Void unused) {
        super("policy set rejected: " + listed.stream().map(PolicyError::toString).collect(Collectors.joining("; ")));
        this.errors = listed;
    }

    private static List<PolicyError> listed(List<PolicyError> errors) {
        if (errors.size() <= LISTED) {
            return List.copyOf(errors);
        }
        var first = new java.util.ArrayList<>(errors.subList(0, LISTED));
        first.add(new PolicyError(errors.get(LISTED).file(), 0, String.format("and %,d more problems, not listed: fix those above first",
                errors.size() - LISTED)));
        return List.copyOf(first);
    }

    public List<PolicyError> errors() {
        return errors;
    }
}
