package dev.quaestor.admin;

import dev.quaestor.audit.read.AuditQuery;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** The auditor API's search parameters, as given: the filters (times as ISO-8601 instants), the cursor and the page size. */
public class AuditSearchParams extends AuditFilters {

    /** Records a page holds when the caller does not say. */
    static final int DEFAULT_LIMIT = 100;

    @QueryParam("limit")
    public Integer limit;

    /**
     * The search as the audit log's query.
     *
     * @throws NumberFormatException for a cursor that is not a row id
     * @throws DateTimeParseException for a time that is not an ISO-8601 instant
     */
    public AuditQuery query() {
        Long after = cursor == null ? null : Long.parseLong(cursor);
        return new AuditQuery(subject, client, tenant, uriPrefix, action, decision, outcome, kind, time(from), time(to), after,
                limit == null ? DEFAULT_LIMIT : limit);
    }

    /** An ISO-8601 instant, or null if blank. */
    static Instant time(String s) {
        return s == null || s.isBlank() ? null : Instant.parse(s);
    }
}
