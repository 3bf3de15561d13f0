package dev.quaestor.cases;

/**
 * A change or view of a case that is refused, before anything is written: the HTTP status, the outcome it is
 * recorded with, and a message for the caller. A case the caller may not see is refused as absent (404), the same
 * answer as for a case that does not exist.
 */
public class CaseRefusal extends RuntimeException {

    private final int status;
    private final String outcome;

    public CaseRefusal(int status, String outcome, String message) {
        super(message);
        this.status = status;
        this.outcome = outcome;
    }

    public static CaseRefusal notFound(long caseId) {
        return new CaseRefusal(404, "not-found", "no case " + caseId + " that you may see");
    }

    public static CaseRefusal invalid(String message) {
        return new CaseRefusal(400, "invalid", message);
    }

    public static CaseRefusal conflict(String message) {
        return new CaseRefusal(409, "refused", message);
    }

    public int status() {
        return status;
    }

    public String outcome() {
        return outcome;
    }
}
