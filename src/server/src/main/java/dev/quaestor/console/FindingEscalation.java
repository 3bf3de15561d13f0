package dev.quaestor.console;

import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CaseSummary;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.Staff;
import dev.quaestor.review.Finding;
import jakarta.enterprise.context.RequestScoped;
import java.time.LocalDate;
import java.util.List;

/**
 * A review's finding escalated to a case: the finding's records, as a search of that day, and a note saying where they
 * came from join the case, each the API's change ({@code audit/cases/add-search}, {@code audit/cases/add-note}), on
 * record before it is stored. Only a case the reviewer may see; a refusal is on record and shown.
 */
@RequestScoped
class FindingEscalation {

    private static final String ADD_SEARCH = "audit/cases/add-search";
    private static final String ADD_NOTE = "audit/cases/add-note";

    /** The longest search name and note a case keeps (its tables' columns). */
    private static final int SEARCH_NAME = 128;
    private static final int NOTE = 8192;

    private final Cases cases;
    private final CaseConsoleAccess access;

    FindingEscalation(Cases cases, CaseConsoleAccess access) {
        this.cases = cases;
        this.access = access;
    }

    /** The cases the reader may escalate to (none if their role does not work on cases). */
    List<CaseSummary> choices() {
        return access.mayWorkOnCases() ? cases.visibleTo(access.staff()) : List.of();
    }

    /** The reader, if they may add to case {@code id}; else the refusal, on record, as a page. Asked before the mark is. */
    Staff admitted(long id) {
        Staff staff = access.admitted(ADD_SEARCH, AuditCase.uriOf(id));
        try {
            cases.open(id, staff);
        } catch (CaseRefusal r) {
            throw access.refused(ADD_SEARCH, AuditCase.uriOf(id), r);
        }
        return staff;
    }

    void escalate(long id, Staff staff, Finding f, LocalDate day, String zone, String note) {
        String what = f.category + (f.subject == null ? "" : " of " + f.subject);
        try {
            cases.addSearch(id, staff, cut("Review of " + day + ": " + what, SEARCH_NAME), FindingLink.caseSearch(f, day, zone),
                    access.recorder(ADD_SEARCH));
            cases.addNote(id, staff, cut("Escalated from the review of " + day + ", finding " + f.id + " (" + what + ", " + f.eventCount
                    + " event(s)): " + note, NOTE), access.recorder(ADD_NOTE));
        } catch (CaseRefusal r) {
            throw access.refused(ADD_SEARCH, AuditCase.uriOf(id), r);
        }
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
