package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.ArchivedMonths;
import dev.quaestor.audit.read.AuditSearch;
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
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Arrays;
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
     * months the search reaches into (their records are in archive files, not here).
     */
    @TemplateData
    public record SearchPage(SearchForm form, Display display, List<RecordRow> records, String error, AuditSearch.Totals totals,
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

    static final Choices CHOICES = new Choices(List.of("", "read", "list", "subscribe"), List.of("", "ALLOW", "DENY", "FILTER"),
            Stream.concat(Stream.of(""), Arrays.stream(AuditEvent.Kind.values()).map(Enum::name)).toList(), TimeZones.OFFERED);

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

    @GET
    @Path("search")
    public TemplateInstance search(@BeanParam SearchForm form) {
        access.view(ConsoleAccess.Area.AUDIT, "console/search", form.describe() + form.position());
        List<RecordRow> rows = List.of();
        Links links = Links.NONE;
        String error = null;
        AuditSearch.Totals totals = null;
        List<ArchivedMonths.Archive> archived = List.of();
        int size = config.pageSize();
        ZoneId reader = zones.of(access.identity().subject());
        ZoneId zone = reader;
        try {
            zone = form.zone(reader);
            size = form.pageSize(size);
            var query = form.query(1, zone);
            var window = records.window(query, form.paging(config.pageSize()));
            ZoneId shownIn = zone;
            rows = window.records().stream().map(r -> new RecordRow(r, shownIn)).toList();
            links = Links.of(form.queryStringIn(zone), window);
            totals = records.totals(query, TOTALS_CAP);
            archived = archive.within(query.from(), query.to());
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
        }
        var display = new Display(size, zone.getId(), form.queryStringIn(zone), form.queryString());
        ZoneId rangeZone = zone;
        var ranges = RangePreset.ALL.stream()
                .map(p -> new Range(p.name(), "/console/search?" + form.queryStringOver(p.from(), p.to(), rangeZone))).toList();
        String me = access.identity().subject();
        return Templates.search(page.chrome("Search"), new SearchPage(form, display, rows, error, totals,
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
        if (name == null || name.isBlank() || name.length() > 128 || back == null) {
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail, 400, name == null || name.isBlank()
                    || name.length() > 128 ? "Not saved: a name (up to 128 characters) is required."
                    : "Not saved: the query is not a search's query string (up to 4,096 characters, as the search page's address has it).");
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
