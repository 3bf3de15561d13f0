package dev.quaestor.console;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.cases.AuditCase;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.CasesConfig;
import dev.quaestor.cases.ChangeRecorder;
import dev.quaestor.cases.Staff;
import jakarta.enterprise.context.RequestScoped;

/**
 * The console's door to cases, as the API's: the caller must hold the auditor or the case administrator role (else
 * 403, on record); adding a search or a request to a case, and seeing the records they find, need the auditor role
 * (else 403, on record under the case's uri: the case administrator role manages members and holds only); a change is put on record ({@code ADMIN}, under the case's or the hold's uri) before it is stored;
 * a refused change is on record under the case's uri, then shown as a page saying why.
 */
@RequestScoped
public class CaseConsoleAccess {

    private final ConsoleAccess access;
    private final AuditLog log;
    private final String caseAdminRole;
    private final String auditorRole;
    /** The request id under which this request's change is on record as not stored, if it is. */
    private String notStored;

    CaseConsoleAccess(ConsoleAccess access, AuditLog log, CasesConfig config, AuditConfig audit) {
        this.access = access;
        this.log = log;
        this.caseAdminRole = config.adminRole();
        this.auditorRole = audit.auditorRole();
    }

    /** The caller as a member of staff working on cases (no record: the caller records the view or the change). */
    public Staff staff() {
        var who = access.identity();
        return new Staff(who.subject(), who.roles().contains(caseAdminRole));
    }

    /** Whether the caller's role opens cases (no record). */
    public boolean mayWorkOnCases() {
        return access.mayOpen(ConsoleAccess.Area.CASES);
    }

    /** The caller, if their role opens cases; else 403, on record as a refused {@code method}. */
    public Staff admitted(String method, String caseUri) {
        if (!access.mayOpen(ConsoleAccess.Area.CASES)) {
            throw access.refuse(AuditEvent.Kind.ADMIN, method, caseUri, "forbidden", null, 403, "Your account ("
                    + access.identity().subject() + ") has no role that works on cases.");
        }
        return staff();
    }

    /** Whether the caller may see what a case reads of the audit log: its requests' and searches' records (no record). */
    public boolean mayReadRecords() {
        return access.isAuditor();
    }

    /**
     * The caller, if they hold the auditor role, which {@code method} needs (it adds to what a case reads of the audit
     * log, or reads it); else 403, on record as a refused {@code kind} under {@code caseUri}.
     */
    public Staff auditor(AuditEvent.Kind kind, String method, String caseUri) {
        Staff staff = admitted(method, caseUri);
        if (!mayReadRecords()) {
            throw access.refuse(kind, method, caseUri, "forbidden", "the role " + auditorRole + " is needed", 403, "Your account ("
                    + access.identity().subject() + ") manages cases' members and holds; searches, requests, their records and "
                    + "evidence bundles are for the role " + auditorRole + ".");
        }
        return staff;
    }

    /** The caller, if their role opens cases; else 403, on record as a refused view ({@code AUDIT_READ}) of {@code caseUri}. */
    public Staff viewer(String method, String caseUri) {
        if (!access.mayOpen(ConsoleAccess.Area.CASES)) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, caseUri, "forbidden", null, 403, "Your account ("
                    + access.identity().subject() + ") has no role that works on cases.");
        }
        return staff();
    }

    /**
     * Puts a change on record ({@code ADMIN}, allowed) under the uri the change names, as {@code method}: an {@code ok}
     * change once the caller's role is checked again; any other outcome (the change recorded, then not stored) under
     * the same request id as its {@code ok}, so that the two are read together.
     */
    public ChangeRecorder recorder(String method) {
        return (uri, outcome, detail) -> {
            if ("ok".equals(outcome)) {
                return access.act(ConsoleAccess.Area.CASES, method, uri, detail);
            }
            String id = access.notAnswered(outcome, detail);
            if (id == null) { // no change of this request on record as let in: the record stands on its own
                id = RequestIds.next();
                log.append(AuditEvent.of(AuditEvent.Kind.ADMIN, id).caller(access.caller()).method(method).uri(uri).decision("ALLOW")
                        .outcome(outcome).detail(detail).build());
            }
            notStored = id;
            return id;
        };
    }

    /**
     * Records a refused change under the case's uri and returns the page that says why, linking back to the case (to
     * the list of cases when there is no case, or none the caller sees).
     */
    public ConsoleRefusal refused(String method, Long caseId, CaseRefusal r) {
        String back = caseId == null || r.status() == 404 ? "/console/cases" : "/console/cases/" + caseId;
        if (notStored != null) { // refused once on record: that it was not stored is said under the change's request id
            return new ConsoleRefusal(r.status(), "Refused: " + r.getMessage() + ".", notStored).backTo(back);
        }
        return access.refuse(AuditEvent.Kind.ADMIN, method, caseId == null ? null : AuditCase.uriOf(caseId), r.outcome(),
                r.getMessage(), r.status(), "Refused: " + r.getMessage() + ".").backTo(back);
    }
}
