package dev.quaestor.admin;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditSearch;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/** The auditor API's search parameters, as given: the filters (times as ISO-8601 instants), the cursor and the page size. */
public class AuditSearchParams extends AuditFilters {

    /** Records a page holds when the caller does not say. */
    static final int DEFAULT_LIMIT = 100;

    /** The query parameters a search takes; any other is refused. */
    static final List<String> NAMES = List.of("subject", "client", "tenant", "uriPrefix", "action", "decision", "outcome", "kind",
            "from", "to", "cursor", "limit");


    /** As given: parsed by {@link #query()}, so that every bad value is answered, and recorded, as such. */
    @QueryParam("limit")
    public String limit;

    /**
     * The search as the audit log's query.
     *
     * @throws InvalidQuery for a kind or decision no record has, a limit out of range, a cursor that is not a row id or
     *         a time that is not an ISO-8601 instant
     */
    public AuditQuery query() {
        QueryCheck.oneOf("kind", kind, KINDS);
        QueryCheck.oneOf("decision", decision, DECISIONS);
        int n = (int) QueryCheck.number("limit", limit, 1, AuditSearch.MAX_PAGE, (long) DEFAULT_LIMIT);
        Long after = cursor == null ? null : QueryCheck.number("cursor", cursor, 0, Long.MAX_VALUE, null);
        Instant start = instant("from", from);
        Instant end = instant("to", to);
        inOrder("from", from, start, "to", to, end);
        return new AuditQuery(subject, client, tenant, uriPrefix, action, decision, outcome, kind, start, end, after, n);
    }

    /**
     * The range from {@code start} to {@code end} (as given in the parameters {@code from} and {@code to}; either null:
     * open) does not end before it starts; else {@link InvalidQuery}, naming both. A range of no length ({@code start}
     * equal to {@code end}) holds no record, and is answered as such.
     */
    static void inOrder(String from, String fromGiven, Instant start, String to, String toGiven, Instant end) {
        if (start != null && end != null && start.isAfter(end)) {
            throw InvalidQuery.outOfOrder(from, fromGiven, to, toGiven);
        }
    }

    /** The parameter's time, null if blank; else {@link InvalidQuery}. */
    static Instant instant(String parameter, String s) {
        Instant t;
        try {
            t = time(s);
        } catch (DateTimeParseException e) {
            throw InvalidQuery.notA(parameter, s, "an ISO-8601 instant, e.g. 2026-11-22T00:00:00Z");
        }
        if (t != null && !AuditQuery.askable(t)) {
            throw InvalidQuery.notA(parameter, s, "an ISO-8601 instant in " + AuditQuery.TIMES + ", e.g. 2026-11-22T00:00:00Z");
        }
        return t;
    }

    /** An ISO-8601 instant, or null if blank. */
    static Instant time(String s) {
        return s == null || s.isBlank() ? null : Instant.parse(s);
    }
}
