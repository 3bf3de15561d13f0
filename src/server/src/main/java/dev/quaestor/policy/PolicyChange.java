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
 * @param how what made the set be read: {@link #START_UP}, {@link #FILE_CHANGE} or {@link #RELOAD}
 */
public record PolicyChange(Instant time, boolean activated, String activeRevision, String candidateRevision,
        List<PolicyError> errors, int rules, String how) {

    /** The set read when the server started. */
    public static final String START_UP = "start-up";
    /** A file-system event in the policy directory. */
    public static final String FILE_CHANGE = "file change";
    /** A re-read without an event (the poll interval's safety net, or a call to reload). */
    public static final String RELOAD = "reload";

    public PolicyChange {
        errors = List.copyOf(errors);
    }

    public PolicyChange(Instant time, boolean activated, String activeRevision, String candidateRevision,
            List<PolicyError> errors, int rules) {
        this(time, activated, activeRevision, candidateRevision, errors, rules, RELOAD);
    }
}
