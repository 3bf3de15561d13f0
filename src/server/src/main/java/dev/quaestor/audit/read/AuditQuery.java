package dev.quaestor.audit.read;

import dev.quaestor.audit.record.FieldHasher;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Search criteria over the audit log; null fields are not filtered. {@code exceptKind} leaves out the records of one
 * kind. {@code after} is the cursor (a row id).
 */
public record AuditQuery(String subject, String client, String tenant, String uriPrefix, String action, String decision,
        String outcome, String kind, String exceptKind, Instant from, Instant to, Long after, int limit) {

    /** The kinds a record has: what {@code kind} accepts, exactly as written. */
    public static final List<String> KINDS = Arrays.stream(AuditEvent.Kind.values()).map(Enum::name).toList();
    /** The decisions a record has: what {@code decision} accepts, exactly as written. */
    public static final List<String> DECISIONS = Arrays.stream(AuditRow.Decision.values()).map(Enum::name).toList();

    /** The times a query, or a hold, may name, said as each refusal of another time says it. */
    public static final String TIMES = "the years 0001 to 9999";
    private static final Instant EARLIEST = LocalDate.of(1, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant();
    private static final Instant END = LocalDate.of(10000, 1, 1).atStartOfDay(ZoneOffset.UTC).toInstant();

    /**
     * Whether {@code t} is in {@link #TIMES}. No record can be outside them, and the database cannot take every instant
     * Java can (PostgreSQL's timestamps end in the year 294276): a bound beyond them would fail the read as if the
     * database had failed, so each reader of a time refuses one as the caller's mistake instead.
     */
    public static boolean askable(Instant t) {
        return !t.isBefore(EARLIEST) && t.isBefore(END);
    }

    /** Criteria that leave out no kind. */
    public AuditQuery(String subject, String client, String tenant, String uriPrefix, String action, String decision,
            String outcome, String kind, Instant from, Instant to, Long after, int limit) {
        this(subject, client, tenant, uriPrefix, action, decision, outcome, kind, null, from, to, after, limit);
    }

    /**
     * SQL conditions on {@code audit_entry} ({@code sql} starts with {@code " WHERE"}) and their arguments, in order;
     * {@code filters}: whether any condition picks records (leaving out a kind does not: it leaves whole requests out).
     */
    record Where(String sql, List<Object> args, boolean filters) {
    }

    /**
     * The query's filters (all but the cursor and limit) as SQL conditions; {@code h} stores the hashed fields as the
     * log does (null: none hashed).
     */
    Where where(FieldHasher h) {
        var where = new StringBuilder(" WHERE 1=1");
        var args = new ArrayList<Object>();
        filter(where, args, "subject = ?", subject);
        filter(where, args, "client_id = ?", h == null ? client : h.apply("client", client));
        filter(where, args, "tenant = ?", h == null ? tenant : h.apply("tenant", tenant));
        filter(where, args, "action = ?", action);
        filter(where, args, "decision = ?", decision);
        filter(where, args, "outcome = ?", outcome);
        filter(where, args, "kind = ?", kind);
        if (uriPrefix != null) {
            // A summary of refused attempts matches when a URI of its sample does (each line: "<count> <uri>"). Each
            // half has an index to read (the URI's, and on PostgreSQL the summaries'), never the whole log.
            String escaped = uriPrefix.replace("!", "!!").replace("%", "!%").replace("_", "!_");
            where.append(" AND (uri LIKE ? ESCAPE '!' OR (kind = 'ATTEMPT_SUMMARY' AND uris LIKE ? ESCAPE '!'))");
            args.add(escaped + "%");
            args.add("% " + escaped + "%");
        }
        filter(where, args, "event_time >= ?", from == null ? null : OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
        filter(where, args, "event_time < ?", to == null ? null : OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
        boolean filters = !args.isEmpty();
        filter(where, args, "kind <> ?", exceptKind);
        return new Where(where.toString(), args, filters);
    }

    private static void filter(StringBuilder where, List<Object> args, String clause, Object value) {
        if (value != null) {
            where.append(" AND ").append(clause);
            args.add(value);
        }
    }
}
