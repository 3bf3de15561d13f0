package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.AuditStream;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The two timelines an investigation starts from: who read what is under a URI prefix (a file, or a folder and
 * everything in it), and what a subject read; each over a range of dates read in the reader's time zone (the last
 * 30 days unless one is given), newest first. Reads are the {@code OUTCOME} records of {@code read} requests; with
 * refusals, the denied and rate-limited {@code DECISION} records and the summaries of refused attempts too.
 */
@Path("/console/timeline")
@Produces(MediaType.TEXT_HTML)
public class TimelineResource {

    /**
     * What a timeline shows: its mode (resource or subject), the value asked for, the range (as typed, and its ends
     * in the reader's zone), how many records it found, the newest {@link #LIMIT} of them, or why there are none.
     */
    @TemplateData
    public record TimelinePage(String mode, String heading, String value, boolean refusals, String from, String to, String zone,
            ShownTime start, ShownTime end, String error, String refusedAs, long found, List<RecordRow> rows,
            List<RangePreset> presets) {

        public boolean more() {
            return found > rows.size();
        }

        /** Whether the reader's zone is UTC: each time is shown once. */
        public boolean utc() {
            return ShownTime.isUtc(zone);
        }
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance timeline(Chrome chrome, TimelinePage view);
    }

    static final int LIMIT = 500;
    /** The range when none is given. */
    static final String DEFAULT_FROM = "-30d";

    private final AuditStream records;
    private final ConsoleAccess access;
    private final ConsolePage page;
    private final TimeZones zones;

    TimelineResource(AuditStream records, ConsoleAccess access, ConsolePage page, TimeZones zones) {
        this.records = records;
        this.access = access;
        this.page = page;
        this.zones = zones;
    }

    @GET
    @Path("resource")
    public Response resource(@QueryParam("uri") String uri, @QueryParam("refusals") boolean refusals,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("tz") String tz, @Context UriInfo address) {
        return render(new Ask("resource", uri, refusals, from, to, tz, address.getQueryParameters()), "uri=" + uri + range(from, to),
                "Who read " + (blank(uri) == null ? "this resource" : uri.trim()));
    }

    @GET
    @Path("subject")
    public Response subject(@QueryParam("subject") String subject, @QueryParam("refusals") boolean refusals,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("tz") String tz, @Context UriInfo address) {
        return render(new Ask("subject", subject, refusals, from, to, tz, address.getQueryParameters()), "subject=" + subject
                + range(from, to), "What " + (blank(subject) == null ? "this subject" : subject.trim()) + " read");
    }

    /**
     * What a timeline was asked: its mode ({@code resource} or {@code subject}) and the value for it (a URI prefix or a
     * subject), the range and zone as given, and every parameter of its address.
     */
    private record Ask(String mode, String value, boolean refusals, String from, String to, String tz,
            MultivaluedMap<String, String> given) {

        /** The parameters a timeline takes: its mode's, and the range's. */
        List<String> parameters() {
            return List.of(mode.equals("resource") ? "uri" : "subject", "refusals", "from", "to", "tz");
        }
    }

    /**
     * The timeline {@code mode}, on record as its view ({@code detail}) before anything is read. A range or zone it
     * cannot take is refused first, 400, on record as {@code invalid} with why: the page shows the error with the
     * range as given, the request id of the refusal, and nothing read.
     */
    private Response render(Ask ask, String detail, String heading) {
        String mode = ask.mode();
        String value = ask.value();
        boolean refusals = ask.refusals();
        String from = ask.from();
        String to = ask.to();
        String tz = ask.tz();
        String method = "console/timeline/" + mode;
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, method, detail); // records the refusal and throws
        }
        String typedFrom = from == null ? DEFAULT_FROM : from.trim();
        String typedTo = to == null ? "" : to.trim();
        ZoneId zone = zones.of(access.identity().subject());
        Instant start = null;
        Instant end = null;
        try {
            SearchFormCheck.onlyThese(ask.given(), ask.parameters(), "the page would show one of them under an address that names all",
                    "a misspelt one would be left out unseen");
            SearchFormCheck.text(mode.equals("resource") ? "uri" : "subject", value);
            zone = blank(tz) == null ? zone : TimeZones.parse(tz.trim());
            start = typedFrom.isEmpty() ? null : TypedTime.parse(typedFrom, zone, false, "from");
            end = typedTo.isEmpty() ? null : TypedTime.parse(typedTo, zone, true, "to");
            if (start != null && end != null && !start.isBefore(end)) {
                throw new IllegalArgumentException("'from' (" + typedFrom + ") is not before 'to' (" + typedTo + ")");
            }
            if (start != null && end == null && !start.isBefore(Instant.now())) {
                // Empty 'to' is now: a range that starts later holds nothing, and would read "from 2099-01-01 to now".
                throw new IllegalArgumentException("'from' (" + typedFrom + ") is not before now, where an empty 'to' ends");
            }
        } catch (IllegalArgumentException e) {
            String id = access.refuse(AuditEvent.Kind.AUDIT_READ, method, "invalid", detail + " refused: " + e.getMessage(), 400,
                    e.getMessage()).requestId();
            return Response.status(400).header("X-Request-Id", id).entity(Templates.timeline(page.chrome(heading), new TimelinePage(
                    mode, heading, value == null ? "" : value.trim(), refusals, typedFrom, typedTo, zone.getId(), ShownTime.of(start, zone),
                    ShownTime.of(end, zone), e.getMessage(), id, 0, List.of(), RangePreset.ALL))).build();
        }
        String id = access.view(ConsoleAccess.Area.AUDIT, method, detail);
        Found found = mode.equals("resource") ? newest(null, blank(value), refusals, start, end, zone)
                : newest(blank(value), null, refusals, start, end, zone);
        return Response.ok(Templates.timeline(page.chrome(heading), new TimelinePage(mode, heading, value == null ? "" : value.trim(),
                refusals, typedFrom, typedTo, zone.getId(), ShownTime.of(start, zone), ShownTime.of(end, zone), null, null, found.count(),
                found.rows(), RangePreset.ALL))).header("X-Request-Id", id).build();
    }

    /** How many records the timeline found, and the newest {@link #LIMIT} of them, newest first. */
    private record Found(long count, List<RecordRow> rows) {
    }

    /**
     * The reads (and refusals) of the range, counted as they are read oldest first; the newest {@link #LIMIT} are
     * kept. The range bounds what is read.
     */
    private Found newest(String subject, String uriPrefix, boolean refusals, Instant from, Instant to, ZoneId zone) {
        if (subject == null && uriPrefix == null) {
            return new Found(0, List.of());
        }
        var kept = new ArrayDeque<AuditRow>(LIMIT + 1);
        long[] count = {0};
        records.stream(new AuditQuery(subject, null, null, uriPrefix, "read", null, null, null, from, to, null, LIMIT), false, r -> {
            if (shown(r, refusals)) {
                count[0]++;
                kept.addLast(r);
                if (kept.size() > LIMIT) {
                    kept.removeFirst();
                }
            }
        });
        var rows = new ArrayList<RecordRow>(kept.size());
        kept.descendingIterator().forEachRemaining(r -> rows.add(new RecordRow(r, zone)));
        return new Found(count[0], rows);
    }

    /** Whether a record is a read that served content, or (with {@code refusals}) a refused read. */
    static boolean shown(AuditRow r, boolean refusals) {
        if (r.kind() == AuditEvent.Kind.OUTCOME) {
            return true;
        }
        boolean refused = r.isSummary() || (r.kind() == AuditEvent.Kind.DECISION
                && (r.decision() == AuditRow.Decision.DENY || "rate-limited".equals(r.outcome())));
        return refusals && refused;
    }

    private static String range(String from, String to) {
        return (blank(from) == null ? "" : " from=" + from.trim()) + (blank(to) == null ? "" : " to=" + to.trim());
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
