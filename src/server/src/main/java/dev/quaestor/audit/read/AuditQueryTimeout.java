package dev.quaestor.audit.read;

import dev.quaestor.audit.record.AuditUnavailableException;

import java.sql.SQLException;

/**
 * A statement of an audit read that the database ended at the audit query timeout
 * ({@code quaestor.audit.query-timeout-ms}, the {@code statement_timeout} of the audit-read pool): the search asked
 * for more of the log than one statement may read. Answered 503 with what to narrow; the call is on record already,
 * as every audit read is.
 */
public class AuditQueryTimeout extends AuditUnavailableException {

    /** PostgreSQL's query_canceled, which H2 uses too for a statement past its QUERY_TIMEOUT. */
    private static final String CANCELED = "57014";

    private AuditQueryTimeout(SQLException cause) {
        super(cause);
    }

    /** What a failed audit read throws: this when the statement ran out of time, else {@link AuditUnavailableException}. */
    public static AuditUnavailableException of(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && CANCELED.equals(sql.getSQLState())) {
                return new AuditQueryTimeout(e);
            }
        }
        return new AuditUnavailableException(e);
    }
}
