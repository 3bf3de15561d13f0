package dev.quaestor.console;

import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditTally;
import dev.quaestor.audit.record.AuditEvent;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Who read what, at any level: for a URI prefix (a folder, a patient, a project), a subject, or both, over a range of
 * dates, how many reads and refused reads there were by subject, by folder, by URI and by day; every count links to
 * the records it counts on the search page. The newest records counted ({@link NotAsWritten#CHECKED} at most) are
 * checked as the search page checks the rows it shows: the page warns of any that may not be what was written, marks
 * the counts that include one, and says when older ones were left to the integrity check.
 */
@Path("/console/who-read")
@Produces(MediaType.TEXT_HTML)
public class WhoReadResource {

    /** The most groups a table shows. */
    static final int GROUPS = 500;

    /**
     * One row of a table: what it counts, its counts, the searches that list them, and whether a record it counts may
     * not be what was written.
     */
    @TemplateData
    public record Row(String key, long reads, long refused, String readsLink, String refusedLink, boolean notAsWritten) {
    }

    /**
     * What the page shows: the question, its zone, the tables (empty where the question fixes the grouping), and the
     * counted records that may not be what was written.
     */
    @TemplateData
    public record WhoReadPage(SearchForm form, String zone, String error, String refusedAs, boolean asked, long reads, long refused,
            List<Row> bySubject, List<Row> byFolder, List<Row> byUri, List<Row> byDay, NotAsWritten notAsWritten) {
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance whoRead(Chrome chrome, WhoReadPage view);
    }

    private final AuditTally tally;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final TimeZones zones;

    WhoReadResource(AuditTally tally, ConsoleAccess access, ConsolePage page, TimeZones zones) {
        this.tally = tally;
        this.access = access;
        this.page = page;
        this.zones = zones;
    }

    @GET
    /**
     * The page, on record as its view before anything is counted. A value it cannot take (a date, a zone, a kind, a
     * range that ends before it starts) is refused first, 400, on record as {@code invalid} with why: the page shows the
     * error with the question as given, the request id of the refusal, and no counts.
     */
    public Response show(@BeanParam SearchForm form, @Context UriInfo address) {
        String method = "console/who-read";
        String detail = form.describe();
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, detail); // records the refusal and throws
        }
        ZoneId zone = zones.of(access.identity().subject());
        boolean asked = !SearchForm.blank(form.subject) || !SearchForm.blank(form.uriPrefix);
        List<Row> bySubject = List.of();
        List<Row> byFolder = List.of();
        List<Row> byUri = List.of();
        List<Row> byDay = List.of();
        AuditQuery q = null;
        try {
            SearchForm.onlyItsParameters(address.getQueryParameters());
            zone = form.zone(zone);
            q = asked ? form.query(1, zone) : null;
        } catch (IllegalArgumentException e) {
            String id = access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail + " refused: " + e.getMessage(), 400,
                    e.getMessage()).requestId();
            return Response.status(400).header("X-Request-Id", id).entity(Templates.whoRead(page.chrome("Who read what"),
                    new WhoReadPage(form, zone.getId(), e.getMessage(), id, asked, 0, 0, bySubject, byFolder, byUri, byDay,
                            NotAsWritten.NONE))).build();
        }
        String id = access.view(ConsoleAccess.Area.AUDIT, method, detail);
        Chrome chrome = page.chrome("Who read what");
        NotAsWritten notAsWritten = NotAsWritten.NONE;
        if (asked) {
            var links = new Links(form, zone);
            notAsWritten = NotAsWritten.of(tally, q, zone, chrome.integrity());
            var marks = notAsWritten;
            bySubject = SearchForm.blank(form.subject)
                    ? tally.tally(q, AuditTally.By.SUBJECT, zone.getId(), GROUPS).stream()
                            .map(c -> links.row(c, "subject", c.key(), marks.subject(c.key()))).toList()
                    : List.of();
            byFolder = tally.tally(q, AuditTally.By.FOLDER, zone.getId(), GROUPS).stream()
                    .map(c -> links.row(c, "uriPrefix", c.key(), marks.folder(c.key()))).toList();
            byUri = tally.tally(q, AuditTally.By.URI, zone.getId(), GROUPS).stream()
                    .map(c -> links.row(c, "uriPrefix", c.key(), marks.uri(c.key()))).toList();
            byDay = tally.tally(q, AuditTally.By.DAY, zone.getId(), GROUPS).stream().map(c -> links.day(c, marks.day(c.key()))).toList();
        }
        long reads = byDay.stream().mapToLong(Row::reads).sum();
        long refused = byDay.stream().mapToLong(Row::refused).sum();
        return Response.ok(Templates.whoRead(chrome, new WhoReadPage(form, zone.getId(), null, null, asked, reads,
                refused, bySubject, byFolder, byUri, byDay, notAsWritten))).header("X-Request-Id", id).build();
    }

    /** The search page's addresses of the records a count counts: the question's filters, narrowed to the row. */
    private record Links(SearchForm form, ZoneId zone) {

        Row row(AuditTally.Count c, String param, String value, boolean notAsWritten) {
            var narrowed = new LinkedHashMap<>(form.filters());
            if (value == null) {
                narrowed.remove(param);
            } else {
                narrowed.put(param, value);
            }
            return new Row(value == null ? "(none)" : value, c.reads(), c.refused(), reads(narrowed), refused(narrowed), notAsWritten);
        }

        Row day(AuditTally.Count c, boolean notAsWritten) {
            var narrowed = new LinkedHashMap<>(form.filters());
            narrowed.put("from", c.key());
            narrowed.put("to", c.key());
            return new Row(c.key(), c.reads(), c.refused(), reads(narrowed), refused(narrowed), notAsWritten);
        }

        private String reads(Map<String, String> filters) {
            var m = new LinkedHashMap<>(filters);
            m.put("action", "read");
            m.put("kind", "OUTCOME");
            m.put("outcome", "ok");
            return search(m);
        }

        private String refused(Map<String, String> filters) {
            var m = new LinkedHashMap<>(filters);
            m.put("action", "read");
            m.put("decision", "DENY");
            return search(m);
        }

        private String search(Map<String, String> m) {
            m.put("tz", zone.getId());
            var j = new StringJoiner("&");
            m.forEach((k, v) -> j.add(k + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
            return "/console/search?" + j;
        }
    }
}
