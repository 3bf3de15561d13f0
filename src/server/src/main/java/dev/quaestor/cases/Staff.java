package dev.quaestor.cases;

/** A member of staff using cases: their subject, and whether they hold the case administrator role. */
public record Staff(String subject, boolean caseAdmin) {

    /** Whether they may see (and work on) the case: a member, or the case administrator role. */
    public boolean sees(AuditCase c) {
        return caseAdmin || c.hasMember(subject);
    }
}
