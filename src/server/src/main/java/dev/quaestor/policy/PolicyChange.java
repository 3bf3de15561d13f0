package dev.quaestor.policy;

import java.time.Instant;
import java.util.List;

/**
 * Fired (as a CDI event) when a policy set is about to be activated or refused, so that others can audit and
 * report it without the policy engine knowing about them. It is fired before the change takes effect: an observer
 * that throws stops it (the set in force stays, and the next reload tries again), so that no set decides a request
 * before its activation is on record.
 *
 * @param activeRevision the revision in force after the change
 * @param candidateRevision the revision that was tried
 * @param errors why it was refused; empty when activated
 * @param how what made the set be read: {@link #START_UP}, {@link #FILE_CHANGE} or {@link #RELOAD}; or
 *     {@link #BACK_TO_ACTIVE}
 * @param set the set in force after the change
 */
public record PolicyChange(Instant time, boolean activated, String activeRevision, String candidateRevision,
        List<PolicyError> errors, int rules, String how, PolicySet set) {

    /** The set read when the server started. */
    public static final String START_UP = "start-up";
    /** A file-system event in the policy directory. */
    public static final String FILE_CHANGE = "file change";
    /** A re-read without an event (the poll interval's safety net, or a call to reload). */
    public static final String RELOAD = "reload";
    /**
     * The files went back to the set in force after a refusal: nothing changes but that the refusal is over. Such a change
     * is {@code activated}, its {@code activeRevision} the set in force and its {@code candidateRevision} the one refused.
     */
    public static final String BACK_TO_ACTIVE = "files back to the active set";

    /**
     * The order of a change's observers ({@code @Priority}): the revision's files stored, then its audit record (both
     * stop the change if they fail), then its row in the policy history (after the evidence; logged if it fails).
     */
    public static final int ORDER_TEXT = 100;
    public static final int ORDER_RECORD = 200;
    public static final int ORDER_HISTORY = 300;

    public PolicyChange {
        errors = List.copyOf(errors);
    }

    /** Whether this change only ends a refusal: the set in force stays, and no revision is activated. */
    public boolean endsRefusal() {
        return BACK_TO_ACTIVE.equals(how);
    }
}
