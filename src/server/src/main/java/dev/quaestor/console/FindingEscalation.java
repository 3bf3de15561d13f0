package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CaseRoom;
import dev.quaestor.cases.CaseSummary;
import dev.quaestor.cases.Cases;
import dev.quaestor.cases.SearchFilters;
import dev.quaestor.cases.Staff;
import dev.quaestor.review.Finding;
import jakarta.enterprise.context.RequestScoped;
import java.time.LocalDate;
import java.util.List;

/**
 * A review's finding escalated to a case: the finding's records, as a search of that day, and a note saying where they
 * came from join the case, each the API's change ({@code audit/cases/add-search}, {@code audit/cases/add-note}), on
 * record before it is stored. Only a case the reviewer may see, and only for the auditor role (a search reads the
 * log). Everything the case could refuse (the reviewer's sight of it, its room, the search, the note's length) is
 * asked before the finding is marked ({@link #plan}), so that a refusal leaves nothing stored; a refusal is on record
 * and shown.
 */
@RequestScoped
class FindingEscalation {

    private static final String ADD_SEARCH = "audit/cases/add-search";
    private static final String ADD_NOTE = "audit/cases/add-note";

    /** The longest search name, search and note a case keeps ({@link Cases} refuses longer ones). */
    private static final int SEARCH_NAME = 128;
    private static final int SEARCH = 4096;
    static final int NOTE = 8000;

    /** What an escalation adds to case {@code caseId}, checked: the search's name and filters, and the note. */
    record Plan(long caseId, Staff staff, String searchName, String search, String note) {
    }

    private final Cases cases;
    private final CaseConsoleAccess access;

    FindingEscalation(Cases cases, CaseConsoleAccess access) {
        this.cases = cases;
        this.access = access;
    }

    /** The cases the reader may escalate to, their newest page (none if their role does not add searches to cases). */
    List<CaseSummary> choices() {
        return access.mayWorkOnCases() && access.mayReadRecords() ? cases.visibleTo(access.staff(), null).cases() : List.of();
    }

    /** The reader, if they may add to case {@code id}; else the refusal, on record, as a page. Asked before the mark is. */
    Staff admitted(long id) {
        Staff staff = access.auditor(AuditEvent.Kind.ADMIN, ADD_SEARCH, AuditCase.uriOf(id));
        try {
            cases.open(id, staff);
        } catch (CaseRefusal r) {
            throw access.refused(ADD_SEARCH, id, r);
        }
        return staff;
    }

    /**
     * What escalating {@code f} to case {@code id} adds, once everything the case could refuse is checked; else the
     * refusal, on record, as a page. Asked before the mark is, so that a refusal stores nothing.
     */
    Plan plan(long id, Staff staff, Finding f, LocalDate day, String zone, String note) {
        String what = f.category + (f.subject == null ? "" : " of " + f.subject);
        try {
            CaseRoom.forSearchAndNote(cases.open(id, staff));
            String search = SearchFilters.parse(FindingLink.caseSearch(f, day, zone)).queryString();
            if (search.length() > SEARCH) {
                throw CaseRefusal.invalid("the finding's search is longer than " + SEARCH + " characters");
            }
            return new Plan(id, staff, cut("Review of " + day + ": " + what, SEARCH_NAME), search, cut("Escalated from the review of "
                    + day + ", finding " + f.id + " (" + what + ", " + f.eventCount + " event(s)): " + note, NOTE));
        } catch (CaseRefusal r) {
            throw access.refused(ADD_SEARCH, id, r);
        }
    }

    /** Adds the planned search and note to the case, each on record before it is stored. */
    void escalate(Plan p) {
        String method = ADD_SEARCH;
        try {
            cases.addSearch(p.caseId(), p.staff(), p.searchName(), p.search(), access.recorder(ADD_SEARCH));
            method = ADD_NOTE;
            cases.addNote(p.caseId(), p.staff(), p.note(), access.recorder(ADD_NOTE));
        } catch (CaseRefusal r) {
            throw access.refused(method, p.caseId(), r);
        }
    }

    private static String cut(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }
}
