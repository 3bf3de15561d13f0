package dev.quaestor.audit.record;

/** The audit log could not commit a record; the request must fail closed. */
public class AuditUnavailableException extends RuntimeException {
    public AuditUnavailableException(Throwable cause) {
        super("audit log unavailable", cause);
    }
}
