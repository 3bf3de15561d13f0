package dev.quaestor.review;

import dev.quaestor.review.Finding.Mark;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Objects;

/**
 * Marking a finding reviewed, dismissed (with a reason) or escalated (with a note): once per finding, by a named
 * reviewer, never on their own activity. The caller records the mark (an ADMIN record) before it is stored. A mark is
 * withdrawn only when the escalation it stood for was refused after it was stored.
 */
@ApplicationScoped
public class FindingMarks {

    /** Why marking {@code finding} {@code mark} with {@code note} is refused, or null when it may go ahead. */
    public String refusal(Finding finding, String reviewer, Mark mark, String note) {
        if (finding == null) {
            return "no such finding";
        }
        if (finding.marked()) {
            return "this finding was marked " + finding.mark.toLowerCase(java.util.Locale.ROOT) + " by " + finding.markedBy + " at "
                    + finding.markedAt;
        }
        if (Objects.equals(finding.subject, reviewer)) {
            return "it is your own activity (" + reviewer + "): another reviewer must mark it";
        }
        if (mark.needsNote() && (note == null || note.isBlank())) {
            return mark == Mark.DISMISSED ? "a dismissal needs a reason" : "an escalation needs a note (to whom, and why)";
        }
        return null;
    }

    /**
     * Withdraws the mark stored under the audit record {@code requestId} (an escalation the case refused after the mark
     * was stored), so that the finding can be marked again; the caller records the withdrawal first.
     */
    public boolean withdraw(long findingId, String requestId) {
        return QuarkusTransaction.requiringNew().call(() -> Finding.update("mark = null, markedBy = null, markedAt = null, markNote = null, "
                + "markRequest = null where id = ?1 and markRequest = ?2", findingId, requestId) == 1);
    }

    /** Stores the mark if the finding is still unmarked; false if someone marked it meanwhile. */
    public boolean mark(long findingId, Mark mark, String reviewer, String note, String requestId, Instant at) {
        return QuarkusTransaction.requiringNew().call(() -> Finding.update("mark = ?1, markedBy = ?2, markedAt = ?3, markNote = ?4, "
                + "markRequest = ?5 where id = ?6 and mark is null", mark.name(), reviewer, at, note, requestId, findingId) == 1);
    }
}
