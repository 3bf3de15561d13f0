package dev.quaestor.console;

import dev.quaestor.admin.AuditFilters;
import dev.quaestor.audit.AuditQuery;
import io.quarkus.qute.TemplateData;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The search page's filters, as query parameters: the page, its next page and its exports share them. Times
 * are UTC, as ISO-8601 instants or as the browser's date-time field sends them ({@code 2026-11-25T09:30}).
 */
@TemplateData
public class SearchForm extends AuditFilters {

    /** The filters that are set, by parameter name (the cursor left out). */
    public Map<String, String> filters() {
        var m = new LinkedHashMap<String, String>();
        put(m, "subject", subject);
        put(m, "client", client);
        put(m, "tenant", tenant);
        put(m, "uriPrefix", uriPrefix);
        put(m, "action", action);
        put(m, "decision", decision);
        put(m, "outcome", outcome);
        put(m, "kind", kind);
        put(m, "from", from);
        put(m, "to", to);
        return m;
    }

    /** A filter's value as the form shows it: empty when unset. */
    public String val(String name) {
        String v = filters().get(name);
        return v == null ? "" : v;
    }

    public boolean isEmpty() {
        return filters().isEmpty();
    }

    /** The filters as a query string (no leading {@code ?}). */
    public String queryString() {
        var j = new StringJoiner("&");
        filters().forEach((k, v) -> j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    /** The filters as the audit reader's query; throws {@link IllegalArgumentException} for a bad time or cursor. */
    public AuditQuery query(int limit) {
        Long after;
        try {
            after = blank(cursor) ? null : Long.parseLong(cursor.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid cursor");
        }
        return new AuditQuery(trim(subject), trim(client), trim(tenant), trim(uriPrefix), trim(action), trim(decision),
                trim(outcome), trim(kind), time(from, "from"), time(to, "to"), after, limit);
    }

    static Instant time(String s, String what) {
        if (blank(s)) {
            return null;
        }
        String t = s.trim();
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(t).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException("'" + what + "' is not a time: use 2026-11-25T09:30 (UTC) or 2026-11-25T09:30:00Z");
            }
        }
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (!blank(v)) {
            m.put(k, v.trim());
        }
    }

    private static String trim(String s) {
        return blank(s) ? null : s.trim();
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** The filters as recorded in the page view's audit record. */
    public String describe() {
        return filters().isEmpty() ? "all records" : filters().toString();
    }
}
