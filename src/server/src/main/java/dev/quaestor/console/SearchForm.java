package dev.quaestor.console;

import dev.quaestor.admin.AuditFilters;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.SearchPaging;
import io.quarkus.qute.TemplateData;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import jakarta.ws.rs.QueryParam;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * The search page's filters and display settings, as query parameters: the page, its other pages and its exports share
 * them. Dates are read in the time zone the form names ({@code tz}), else the reader's ({@link TypedTime}).
 */
@TemplateData
public class SearchForm extends AuditFilters {

    /** The page sizes the form offers. */
    static final List<Integer> SIZES = List.of(25, 50, 100, 200, 500);

    /** {@code oldest} for oldest first, {@code newest} (or unset) for newest first. */
    @QueryParam("order")
    public String order;
    /** Records a page (1 to {@link #MAX_SIZE}); the console's default when unset. */
    @QueryParam("size")
    public String size;
    /** {@code true} to show the staff's own reads of the log ({@code AUDIT_READ}), left out otherwise. */
    @QueryParam("staffReads")
    public String staffReads;
    /** The page that ends just before this record (a row id). */
    @QueryParam("before")
    public String before;
    /** {@code true} for the search's last page. */
    @QueryParam("last")
    public String last;
    /** The time zone the dates are read in and the times shown in (an IANA name); unset: the reader's. */
    @QueryParam("tz")
    public String tz;

    /** The parameters the form takes: its fields' names in the address, the filters' among them. */
    static final java.util.Set<String> PARAMETERS = java.util.stream.Stream.of(SearchForm.class.getFields())
            .map(f -> f.getAnnotation(QueryParam.class)).filter(java.util.Objects::nonNull).map(QueryParam::value)
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    /**
     * Refuses ({@link IllegalArgumentException}) a parameter in {@code given} that neither the form nor {@code more}
     * takes: a misspelt filter ({@code subjet=alice}) would otherwise leave the search unfiltered, its page or what
     * leaves the console (an export, an evidence bundle) with everyone's records in it. Refuses one given twice too
     * ({@code subject=alice&subject=bob}): only the first would be searched, and the second dropped unseen.
     */
    static void onlyItsParameters(jakarta.ws.rs.core.MultivaluedMap<String, String> given, String... more) {
        SearchFormCheck.onlyThese(given, java.util.stream.Stream.concat(PARAMETERS.stream(), java.util.stream.Stream.of(more)).toList(),
                "a search by several would be another search than the one asked", "a misspelt filter would leave it unfiltered");
    }

    /**
     * Checks a query string (no leading {@code ?}, already read as an address's query) as the search page would read
     * it, its parameters then its values, so that what is kept to be opened later is a search the page answers: throws
     * {@link IllegalArgumentException} naming what it would refuse. Dates are read in {@code reader}'s zone unless the
     * query names one.
     */
    static void checkQueryString(String queryString, ZoneId reader, int standardSize) {
        // Read by the page's own reader (Vert.x's, Netty's decoder): ';' separates as '&' does, empty parts are skipped.
        var given = new jakarta.ws.rs.core.MultivaluedHashMap<String, String>();
        new io.netty.handler.codec.http.QueryStringDecoder(queryString, StandardCharsets.UTF_8, false).parameters()
                .forEach(given::addAll);
        onlyItsParameters(given);
        var form = new SearchForm();
        for (var f : SearchForm.class.getFields()) {
            QueryParam name = f.getAnnotation(QueryParam.class);
            if (name != null && given.containsKey(name.value())) {
                try {
                    f.set(form, given.getFirst(name.value()));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        ZoneId zone = form.zone(reader);
        form.query(1, zone);
        form.paging(standardSize);
    }

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

    /** How the results are shown (order, page size, staff reads), by parameter name: what is set. */
    public Map<String, String> display() {
        var m = new LinkedHashMap<String, String>();
        put(m, "order", order);
        put(m, "size", size);
        put(m, "staffReads", staffReads);
        return m;
    }

    /** A filter's or display setting's value as the form shows it: empty when unset. */
    public String val(String name) {
        String v = filters().get(name);
        if (v == null) {
            v = display().get(name);
        }
        return v == null ? "" : v;
    }

    public boolean newestFirst() {
        return !"oldest".equals(trim(order));
    }

    public boolean showsStaffReads() {
        return "true".equals(trim(staffReads)) || "AUDIT_READ".equals(trim(kind));
    }

    /** The records a page, as asked for or {@code standard}; throws {@link IllegalArgumentException} for a bad size. */
    public int pageSize(int standard) {
        Long n = SearchFormCheck.number("size", size, 1, MAX_SIZE, "the records a page (the form offers " + offered() + ")");
        return n == null ? standard : n.intValue();
    }

    /** The most records a page shows: the largest size the form offers. */
    static final int MAX_SIZE = SIZES.get(SIZES.size() - 1);

    private static String offered() {
        var j = new StringJoiner(", ");
        SIZES.forEach(n -> j.add(n.toString()));
        return j.toString();
    }

    /** Which page to read; throws {@link IllegalArgumentException} for a bad order, size, cursor or last. */
    public SearchPaging paging(int standardSize) {
        SearchFormCheck.oneOf("order", order, ORDERS);
        int n = pageSize(standardSize);
        if (SearchFormCheck.oneOf("last", last, List.of("true")) != null) {
            return new SearchPaging(newestFirst(), n, SearchPaging.From.LAST, 0);
        }
        Long after = id("cursor", cursor);
        if (after != null) {
            return new SearchPaging(newestFirst(), n, SearchPaging.From.AFTER, after);
        }
        Long end = id("before", before);
        return end == null ? new SearchPaging(newestFirst(), n, SearchPaging.From.FIRST, 0)
                : new SearchPaging(newestFirst(), n, SearchPaging.From.BEFORE, end);
    }

    /** What {@code order} takes: newest first, or oldest first. */
    static final List<String> ORDERS = List.of("newest", "oldest");

    private static Long id(String field, String s) {
        return SearchFormCheck.number(field, s, 0, Long.MAX_VALUE, "a record's position (a row id, as the paging links give it)");
    }

    public boolean isEmpty() {
        return filters().isEmpty();
    }

    /** The filters and display settings as a query string (no leading {@code ?}, no page position, no time zone). */
    public String queryString() {
        var j = new StringJoiner("&");
        filters().forEach((k, v) -> j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        display().forEach((k, v) -> j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    /** As {@link #queryString()}, with the time zone its dates are read in: a link that means the same to anyone. */
    public String queryStringIn(ZoneId zone) {
        String q = queryString();
        return (q.isEmpty() ? "" : q + "&") + "tz=" + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8);
    }

    /** As {@link #queryStringIn(ZoneId)}, over the range {@code from} to {@code to} (either empty: open) instead of the form's. */
    public String queryStringOver(String from, String to, ZoneId zone) {
        var m = new LinkedHashMap<>(filters());
        m.remove("from");
        m.remove("to");
        put(m, "from", from);
        put(m, "to", to);
        m.putAll(display());
        m.put("tz", zone.getId());
        var j = new StringJoiner("&");
        m.forEach((k, v) -> j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return j.toString();
    }

    /** The zone the form's dates are read in: the one it names, else {@code reader}'s. */
    public ZoneId zone(ZoneId reader) {
        return blank(tz) ? reader : TimeZones.parse(tz.trim());
    }

    /** The kind of the staff's own reads of the log (the console's page views among them). */
    static final String STAFF_READS = "AUDIT_READ";

    /**
     * The filters as the audit reader's query, dates read in {@code zone}; throws {@link IllegalArgumentException} for a
     * bad time, a range that ends before it starts, a kind or decision no record has, or a bad cursor.
     */
    public AuditQuery query(int limit, ZoneId zone) {
        Long after = id("cursor", cursor);
        String k = SearchFormCheck.oneOf("kind", kind, KINDS);
        String d = SearchFormCheck.oneOf("decision", decision, DECISIONS);
        Instant start = time(from, zone, false, "from");
        Instant end = time(to, zone, true, "to");
        if (start != null && end != null && !start.isBefore(end)) {
            throw new IllegalArgumentException("'from' (" + from.trim() + ", " + start + ") is not before 'to' (" + to.trim() + ", "
                    + end + "): the range ends before it starts. Give a 'from' earlier than the 'to', or leave one empty");
        }
        return new AuditQuery(SearchFormCheck.text("subject", subject), SearchFormCheck.text("client", client),
                SearchFormCheck.text("tenant", tenant), SearchFormCheck.text("uriPrefix", uriPrefix),
                SearchFormCheck.text("action", action), d, SearchFormCheck.text("outcome", outcome), k,
                showsStaffReads() ? null : STAFF_READS, start, end, after, limit);
    }

    private static Instant time(String s, ZoneId zone, boolean end, String what) {
        return blank(s) ? null : TypedTime.parse(s, zone, end, what);
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (!blank(v)) {
            m.put(k, v.strip()); // white space only: a NUL the query refuses stays in what is on record
        }
    }

    private static String trim(String s) {
        return blank(s) ? null : s.trim();
    }

    static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    /** Where the page starts, as recorded in the page view's audit record: empty for the first page. */
    public String position() {
        if ("true".equals(trim(last))) {
            return " last page";
        }
        return !blank(cursor) ? " cursor=" + cursor.trim() : !blank(before) ? " before=" + before.trim() : "";
    }

    /** The filters as recorded in the page view's audit record. */
    public String describe() {
        return (filters().isEmpty() ? "all records" : filters().toString()) + (showsStaffReads() ? " with staff reads" : "");
    }
}
