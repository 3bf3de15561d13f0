package dev.quaestor.pipeline;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.policy.PolicyChange;
import dev.quaestor.policy.PolicyError;
import dev.quaestor.policy.PolicyStore;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Makes every policy activation and refusal visible: an audit record carrying the revisions, appended before the
 * change takes effect (a change that cannot be recorded does not happen),
 * and metrics ({@code quaestor_policy_reloads_total{result}}, {@code quaestor_policy_degraded},
 * {@code quaestor_policy_rules}).
 */
@ApplicationScoped
public class PolicyChangeRecorder {

    private static final Logger LOG = Logger.getLogger(PolicyChangeRecorder.class);

    private final AuditLog audit;
    private final MeterRegistry metrics;
    private final PolicyStore store;

    PolicyChangeRecorder(AuditLog audit, MeterRegistry metrics, PolicyStore store) {
        this.audit = audit;
        this.metrics = metrics;
        this.store = store;
        metrics.gauge("quaestor.policy.degraded", store, s -> s.refusal() == null ? 0 : 1);
        metrics.gauge("quaestor.policy.rules", store, s -> s.current().rules().size());
    }

    /** The set loaded at start-up is an activation too: a server that cannot record it does not start. */
    void started(@Observes StartupEvent ev) {
        var set = store.current();
        record(new PolicyChange(Instant.now(), true, set.revision(), set.revision(), List.of(), set.rules().size(),
                PolicyChange.START_UP, set));
    }

    /** Before the change takes effect: if it cannot be recorded, the exception stops it (the store tries again). */
    void changed(@Observes @Priority(PolicyChange.ORDER_RECORD) PolicyChange change) {
        record(change);
        metrics.counter("quaestor.policy.reloads", "result", outcome(change)).increment();
    }

    /** {@code activated}, {@code refused}, or {@code resumed}: the files went back to the set in force after a refusal. */
    private static String outcome(PolicyChange c) {
        return c.endsRefusal() ? "resumed" : c.activated() ? "activated" : "refused";
    }

    /** Room for the problems in a record's detail, with the count of those left out after them. */
    private static final int DETAIL_ROOM = AuditRecords.width(RecordField.DETAIL) - 80;

    /**
     * {@code head} and the problems, as many as fit in a record's detail, then how many more lines there are: so that
     * the record says what it leaves out, rather than being cut off at the column's width.
     */
    static String problems(String head, java.util.List<PolicyError> errors) {
        var text = new StringBuilder(head);
        for (int i = 0; i < errors.size(); i++) {
            String next = (i == 0 ? "" : "; ") + errors.get(i);
            if (text.length() + next.length() > DETAIL_ROOM) {
                return text.append(String.format("; and %,d more lines of problems, on the policy page and in the log",
                        errors.size() - i)).toString();
            }
            text.append(next);
        }
        return text.toString();
    }

    private void record(PolicyChange c) {
        String detail = c.endsRefusal() ? c.rules() + " rules active: the refusal of revision " + c.candidateRevision()
                + " is over (" + c.how() + ")"
                : c.activated() ? c.rules() + " rules active (" + c.how() + ")"
                : problems("refused revision " + c.candidateRevision() + ": ", c.errors());
        String method = c.endsRefusal() ? "policy/resume" : c.activated() ? "policy/activate" : "policy/refuse";
        try {
            audit.append(AuditEvent.of(AuditEvent.Kind.POLICY, RequestIds.next()).time(c.time())
                    .method(method).policyRevision(c.activeRevision()).outcome(outcome(c)).detail(detail).build());
        } catch (AuditUnavailableException e) {
            LOG.errorf("could not audit policy change to %s: %s", c.candidateRevision(), e.getMessage());
            throw e;
        }
    }
}
