package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.ArchivedMonths;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.SearchPaging;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.stream.Stream;

/**
 * The search page (filters, paging, range presets, exports of the search) and saved searches, each kept for its owner
 * or shared with the other officers; a saved search keeps its dates as typed, so a relative range stays relative.
 */
@Path("/console")
@Produces(MediaType.TEXT_HTML)
public class SearchResource {

    /**
     * What the search page shows: the filters, a page of records in the order asked for, the totals, links to the
     * first, previous, next and last pages (null where there is none), the caller's saved searches, and the archived
     * months the search reaches into (their records are in archive files, not here). A search refused has its
     * {@code error} and the request id its refusal is on record under ({@code refusedAs}), and no records.
     */
    @TemplateData
    public record SearchPage(SearchForm form, Display display, List<RecordRow> records, String error, String refusedAs,
            AuditSearch.Totals totals,
            long pageEvents, Links links, Choices choices, List<SavedSearch> saved, List<ArchivedMonths.Archive> archived, String me,
            List<Range> ranges) {
    }

    /** A range preset as a link: the search over it. */
    @TemplateData
    public record Range(String name, String href) {
    }

    /**
     * How the page is shown: the records a page (and the sizes offered, this one among them), the time zone its dates
     * are read and shown in, and the query string of the search with that zone ({@code query}, for links, exports and
     * saving) and without it ({@code unzoned}).
     */
    @TemplateData
    public record Display(int size, List<Integer> sizes, String zone, String query, String unzoned) {

        Display(int size, String zone, String query, String unzoned) {
            this(size, Stream.concat(SearchForm.SIZES.stream(), Stream.of(size)).distinct().sorted().toList(), zone, query, unzoned);
        }

        /** Whether the reader's zone is UTC: each time is shown once. */
        public boolean utc() {
            return ShownTime.isUtc(zone);
        }
    }

    /** Where the paging buttons go. */
    @TemplateData
    public record Links(String first, String previous, String next, String last) {

        static final Links NONE = new Links(null, null, null, null);

        static Links of(String query, AuditSearch.Window w) {
            if (w.records().isEmpty()) {
                return NONE;
            }
            String base = "/console/search?" + (query.isEmpty() ? "" : query + "&");
            return new Links(w.earlier() ? "/console/search" + (query.isEmpty() ? "" : "?" + query) : null,
                    w.earlier() ? base + "before=" + w.records().get(0).id() : null,
                    w.later() ? base + "cursor=" + w.records().get(w.records().size() - 1).id() : null,
                    w.later() ? base + "last=true" : null);
        }
    }

    /** The options of the form's lists. */
    @TemplateData
    public record Choices(List<String> actions, List<String> decisions, List<String> kinds, List<String> zones) {
    }

    /** A search's totals are counted over at most this many records. */
    static final int TOTALS_CAP = 100_000;

    static final Choices CHOICES = new Choices(List.of("", "read", "list", "subscribe"), anyOr(SearchForm.DECISIONS),
            anyOr(SearchForm.KINDS), TimeZones.OFFERED);

    private static List<String> anyOr(List<String> values) {
        return Stream.concat(Stream.of(""), values.stream()).toList();
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance search(Chrome chrome, SearchPage view);
    }

    private final AuditSearch records;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final ConsoleConfig config;
    private final TimeZones zones;
    private final ArchivedMonths archive;

    SearchResource(AuditSearch records, ConsoleAccess access, ConsolePage page, ConsoleConfig config, TimeZones zones,
            ArchivedMonths archive) {
        this.archive = archive;
        this.zones = zones;
        this.records = records;
        this.access = access;
        this.page = page;
        this.config = config;
    }

    /**
     * The search page. Its form is checked before anything is read: a parameter it does not take (a misspelt filter,
     * which would leave the search unfiltered) or a value the search cannot take (a date, a kind, a decision, an order, a
     * size, a cursor, a range that ends before it starts) is refused, 400, on record as {@code invalid} with the reason,
     * and the page shows the error with the form as given and no results.
     */
    @GET
    @Path("search")
    public Response search(@BeanParam SearchForm form, @Context UriInfo address) {
        String method = "console/search";
        String detail = form.describe() + form.position();
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, detail); // records the refusal and throws
        }
        ZoneId reader = zones.of(access.identity().subject());
        ZoneId zone = reader;
        int size = config.pageSize();
        AuditQuery query;
        SearchPaging paging;
        try {
            SearchForm.onlyItsParameters(address.getQueryParameters());
            zone = form.zone(reader);
            size = form.pageSize(size);
            query = form.query(1, zone);
            paging = form.paging(config.pageSize());
        } catch (IllegalArgumentException e) {
            String id = access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail + " refused: " + e.getMessage(), 400,
                    e.getMessage()).requestId();
            return Response.status(400).header("X-Request-Id", id).entity(page(form, zone, size, List.of(), Links.NONE, e.getMessage(),
                    id, null, List.of())).build();
        }
        String id = access.view(ConsoleAccess.Area.AUDIT, method, detail);
        var window = records.window(query, paging);
        ZoneId shownIn = zone;
        var rows = window.records().stream().map(r -> new RecordRow(r, shownIn)).toList();
        return Response.ok(page(form, zone, size, rows, Links.of(form.queryStringIn(zone), window), null, null,
                records.totals(query, TOTALS_CAP), archive.within(query.from(), query.to()))).header("X-Request-Id", id).build();
    }

    private TemplateInstance page(SearchForm form, ZoneId zone, int size, List<RecordRow> rows, Links links, String error,
            String refusedAs, AuditSearch.Totals totals, List<ArchivedMonths.Archive> archived) {
        var display = new Display(size, zone.getId(), form.queryStringIn(zone), form.queryString());
        var ranges = RangePreset.ALL.stream()
                .map(p -> new Range(p.name(), "/console/search?" + form.queryStringOver(p.from(), p.to(), zone))).toList();
        String me = access.identity().subject();
        return Templates.search(page.chrome("Search"), new SearchPage(form, display, rows, error, refusedAs, totals,
                rows.stream().mapToLong(RecordRow::events).sum(), links, CHOICES,
                QuarkusTransaction.requiringNew().call(() -> SavedSearch.visibleTo(me)), archived, me, ranges));
    }

    /** Keeps the time zone the caller reads times in, and shows the search again in it. */
    @POST
    @Path("time-zone")
    public Response timeZone(@FormParam("csrf") String csrf, @FormParam("zone") String zoneName, @FormParam("query") String query) {
        String method = "console/time-zone";
        page.checkCsrf(csrf, method);
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, "zone=" + zoneName); // records the refusal and throws
        }
        ZoneId zone;
        try {
            zone = TimeZones.parse(zoneName == null ? "" : zoneName.trim());
        } catch (IllegalArgumentException e) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", "zone=" + zoneName, 400, e.getMessage());
        }
        zones.remember(access.identity().subject(), zone);
        access.view(ConsoleAccess.Area.AUDIT, method, "zone=" + zoneName);
        String q = query == null || query.length() > 4096 ? "" : query;
        URI back;
        try {
            back = URI.create("/console/search?" + (q.isEmpty() ? "" : q + "&") + "tz=" + URLEncoder.encode(zone.getId(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            back = URI.create("/console/search");
        }
        return Response.seeOther(back).build();
    }

    @POST
    @Path("searches")
    public Response save(@FormParam("csrf") String csrf, @FormParam("name") String name, @FormParam("query") String query,
            @FormParam("shared") String shared) {
        String method = "console/search/save";
        page.checkCsrf(csrf, method);
        boolean share = "true".equals(shared);
        String detail = "name=" + name + " query=" + query + (share ? " shared" : "");
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, detail); // records the refusal and throws
        }
        // Checked before anything is recorded as saved or stored: a search refused is on record as refused, and kept nowhere.
        URI back = query == null || query.length() > 4096 ? null : searchAt(query);
        if (name != null && name.indexOf('\0') >= 0 || query != null && query.indexOf('\0') >= 0) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail, 400,
                    "Not saved: the name or the query holds a NUL character (%00), which cannot be kept. Remove it.");
        }
        if (name == null || name.isBlank() || name.length() > 128 || back == null) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail, 400, name == null || name.isBlank()
                    || name.length() > 128 ? "Not saved: a name (up to 128 characters) is required."
                    : "Not saved: the query is not a search's query string (up to 4,096 characters, as the search page's address has it).");
        }
        try {
            SearchForm.checkQueryString(query, zones.of(access.identity().subject()), config.pageSize());
        } catch (IllegalArgumentException e) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail, 400,
                    "Not saved: the search page would refuse this query: " + e.getMessage() + ".");
        }
        // Stored, then recorded, then committed: a search whose record could not be written is not kept.
        QuarkusTransaction.requiringNew().run(() -> {
            if (SavedSearch.keptBy(access.identity().subject()) >= SavedSearch.MAX_PER_OWNER) {
                throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail, 409, "Not saved: you keep "
                        + SavedSearch.MAX_PER_OWNER + " saved searches, the most one person keeps; delete one first.");
            }
            var s = new SavedSearch();
            s.owner = access.identity().subject();
            s.name = name.strip();
            s.query = query;
            s.shared = share;
            s.createdAt = Instant.now();
            s.persist();
            SavedSearch.flush();
            access.view(ConsoleAccess.Area.AUDIT, method, detail);
        });
        return Response.seeOther(back).build();
    }

    /** The search page at {@code query} (a query string as its address has it), or null if that is not an address. */
    private static URI searchAt(String query) {
        try {
            return new URI("/console/search" + (query.isEmpty() ? "" : "?" + query));
        } catch (java.net.URISyntaxException e) {
            return null;
        }
    }

    @POST
    @Path("searches/{id}/delete")
    public Response delete(@PathParam("id") long id, @FormParam("csrf") String csrf) {
        String method = "console/search/delete";
        page.checkCsrf(csrf, method);
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, "id=" + id); // records the refusal and throws
        }
        String me = access.identity().subject();
        // Found, judged, recorded and deleted in one transaction: what is on record is what happened.
        QuarkusTransaction.requiringNew().run(() -> {
            SavedSearch s = SavedSearch.findById(id);
            if (s == null || !s.owner.equals(me) && !s.shared) {
                throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "not-found", "id=" + id, 404,
                        "Not deleted: you have no saved search " + id + ".");
            }
            if (!s.owner.equals(me)) {
                throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "refused", "id=" + id + " kept by " + s.owner, 403,
                        "Not deleted: the saved search '" + s.name + "' is " + s.owner + "'s; only its owner deletes it.");
            }
            access.view(ConsoleAccess.Area.AUDIT, method, "id=" + id + " '" + s.name + "'");
            s.delete();
        });
        return Response.seeOther(URI.create("/console/search")).build();
    }
}
