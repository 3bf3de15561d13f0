package dev.quaestor.cases;

import dev.quaestor.audit.read.AuditQuery;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * A case's search: the filters of the console's search page as its query string ({@code subject=alice&from=…}), read
 * strictly (an unknown filter, a filter given twice or a time that is not one is refused) and kept in one normal form.
 */
public record SearchFilters(Map<String, String> filters) {

    static final List<String> NAMES = List.of("subject", "client", "tenant", "uriPrefix", "action", "decision", "outcome",
            "kind", "from", "to");

    /** Reads a query string (with or without its leading {@code ?}); throws {@link CaseRefusal} (400) when it is not one. */
    public static SearchFilters parse(String queryString) {
        String q = queryString == null ? "" : queryString.strip();
        if (q.startsWith("?")) {
            q = q.substring(1);
        }
        var filters = new TreeMap<String, String>();
        for (String pair : q.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1)).strip();
            if (name.equals("cursor")) {
                continue;
            }
            Checked.noNul("a search filter's name", name);
            if (!NAMES.contains(name)) {
                throw CaseRefusal.invalid("unknown search filter '" + name + "' (filters: " + String.join(", ", NAMES) + ")");
            }
            if (value.isEmpty()) {
                // As the auditor API's search: read as no filter, "subject=$WHO" with WHO unset would ask for everyone's.
                throw CaseRefusal.invalid("search filter '" + name + "' is empty: leave it out to ask for none");
            }
            Checked.noNul("search filter '" + name + "'", value);
            if (filters.put(name, value) != null) {
                throw CaseRefusal.invalid("search filter '" + name + "' is given twice");
            }
        }
        if (filters.isEmpty()) {
            throw CaseRefusal.invalid("a case's search needs at least one filter; add the requests themselves instead");
        }
        oneOf(filters, "kind", AuditQuery.KINDS);
        oneOf(filters, "decision", AuditQuery.DECISIONS);
        var parsed = new SearchFilters(Map.copyOf(filters));
        Instant from = parsed.time("from");
        Instant to = parsed.time("to");
        if (from != null && to != null && from.isAfter(to)) {
            throw CaseRefusal.invalid("'from' (" + from + ") is after 'to' (" + to + "): the range ends before it starts");
        }
        return parsed;
    }

    /**
     * The filters of a search as the audit log reads them (times as instants), checked as {@link #parse} checks a
     * query string.
     */
    public static SearchFilters of(AuditQuery q) {
        var m = new StringJoiner("&");
        put(m, "subject", q.subject());
        put(m, "client", q.client());
        put(m, "tenant", q.tenant());
        put(m, "uriPrefix", q.uriPrefix());
        put(m, "action", q.action());
        put(m, "decision", q.decision());
        put(m, "outcome", q.outcome());
        put(m, "kind", q.kind());
        put(m, "from", q.from() == null ? null : q.from().toString());
        put(m, "to", q.to() == null ? null : q.to().toString());
        return parse(m.toString());
    }

    /** A filter that takes one of {@code accepted}, exactly as written, as the auditor API's search takes it. */
    private static void oneOf(Map<String, String> filters, String name, List<String> accepted) {
        String v = filters.get(name);
        if (v != null && !accepted.contains(v)) {
            throw CaseRefusal.invalid("search filter '" + name + "' must be one of " + String.join(", ", accepted)
                    + " (exactly as written)");
        }
    }

    private static void put(StringJoiner j, String name, String value) {
        if (value != null && !value.isBlank()) {
            j.add(name + "=" + URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }

    /** The filters as a query string, in the order of {@link #NAMES}. */
    public String queryString() {
        var j = new StringJoiner("&");
        for (String name : NAMES) {
            String v = filters.get(name);
            if (v != null) {
                j.add(name + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8));
            }
        }
        return j.toString();
    }

    /** The search as the audit log's query, from its first record. */
    public AuditQuery query(int limit) {
        return new AuditQuery(filters.get("subject"), filters.get("client"), filters.get("tenant"), filters.get("uriPrefix"),
                filters.get("action"), filters.get("decision"), filters.get("outcome"), filters.get("kind"), time("from"),
                time("to"), null, limit);
    }

    private Instant time(String name) {
        String t = filters.get(name);
        if (t == null) {
            return null;
        }
        Instant read;
        try {
            read = Instant.parse(t);
        } catch (DateTimeParseException e) {
            try {
                read = LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                throw CaseRefusal.invalid("'" + name + "' is not a time: use 2026-11-25T09:30 (UTC) or 2026-11-25T09:30:00Z");
            }
        }
        if (!AuditQuery.askable(read)) {
            throw CaseRefusal.invalid("'" + name + "' is outside " + AuditQuery.TIMES);
        }
        return read;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw CaseRefusal.invalid("the search is not a query string: " + e.getMessage());
        }
    }
}
