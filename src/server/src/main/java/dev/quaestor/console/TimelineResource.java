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
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;

/**
 * The two timelines an investigation starts from: who read this resource, and what did this subject read.
 * Reads are the {@code OUTCOME} records of {@code read} requests that served content; with refusals, the
 * denied and rate-limited {@code DECISION} records too.
 */
@Path("/console/timeline")
@Produces(MediaType.TEXT_HTML)
public class TimelineResource {

    /** What a timeline shows: its mode (resource or subject), the value asked for, and the rows. */
    @TemplateData
    public record TimelinePage(String mode, String heading, String value, boolean refusals, List<RecordRow> rows, boolean more) {
    }

    @CheckedTemplate(basePath = "console", defaultName = CheckedTemplate.HYPHENATED_ELEMENT_NAME)
    static class Templates {
        static native TemplateInstance timeline(Chrome chrome, TimelinePage view);
    }

    static final int LIMIT = 500;

    private final AuditStream records;
    private final ConsoleAccess access;
    private final ConsolePage page;

    TimelineResource(AuditStream records, ConsoleAccess access, ConsolePage page) {
        this.records = records;
        this.access = access;
        this.page = page;
    }

    @GET
    @Path("resource")
    public TemplateInstance resource(@QueryParam("uri") String uri, @QueryParam("refusals") boolean refusals) {
        access.view(ConsoleAccess.Area.AUDIT, "console/timeline/resource", "uri=" + uri);
        return render("resource", "Who read " + (uri == null ? "this resource" : uri), uri, refusals,
                rows(null, uri, refusals));
    }

    @GET
    @Path("subject")
    public TemplateInstance subject(@QueryParam("subject") String subject, @QueryParam("refusals") boolean refusals) {
        access.view(ConsoleAccess.Area.AUDIT, "console/timeline/subject", "subject=" + subject);
        return render("subject", "What " + (subject == null ? "this subject" : subject) + " read", subject, refusals,
                rows(subject, null, refusals));
    }

    private TemplateInstance render(String mode, String heading, String value, boolean refusals, List<RecordRow> rows) {
        boolean more = rows.size() > LIMIT;
        return Templates.timeline(page.chrome(heading), new TimelinePage(mode, heading, value == null ? "" : value, refusals,
                more ? rows.subList(0, LIMIT) : rows, more));
    }

    /** Reads (and refusals), oldest first; one more than {@link #LIMIT} to tell whether there are more. */
    private List<RecordRow> rows(String subject, String uri, boolean refusals) {
        if ((subject == null || subject.isBlank()) && (uri == null || uri.isBlank())) {
            return List.of();
        }
        var out = new ArrayList<RecordRow>();
        String s = blank(subject);
        String u = blank(uri);
        try {
            records.stream(new AuditQuery(s, null, null, u, "read", null, null, null, null, null, null, LIMIT), false, r -> {
                if (u != null && !u.equals(r.uri())) {
                    return;
                }
                boolean read = r.kind() == AuditEvent.Kind.OUTCOME;
                boolean refused = r.kind() == AuditEvent.Kind.DECISION
                        && (r.decision() == AuditRow.Decision.DENY || "rate-limited".equals(r.outcome()));
                if (read || (refusals && refused)) {
                    out.add(new RecordRow(r));
                    if (out.size() > LIMIT) {
                        throw new Enough();
                    }
                }
            });
        } catch (Enough enough) {
            // one more than shown: the page says there are more
        }
        return out;
    }

    /** Stops reading the cursor once the page is full. */
    private static final class Enough extends RuntimeException {
        Enough() {
            super(null, null, false, false);
        }
    }

    private static String blank(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
