package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditStream;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.read.DigestingOutputStream;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import dev.quaestor.http.WriteDeadlines;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Exports of the current search as JSON Lines, CSV or OCSF 1.8.0, read a page at a time (no connection held while
 * the client reads), each holding an export place ({@link LongReads}) and written under a write deadline. Two
 * records, one request id: the export's {@code AUDIT_READ} record (method {@code console/export}) is committed
 * before the first byte is sent, and when the stream ends a second one ({@code console/export/done}) carries
 * the SHA-256 and size of exactly the file produced and how many records or events it holds, or, if the
 * stream broke off, {@code aborted} with what had been sent. The digest can only be known at the end.
 */
@Path("/console/export")
public class ExportResource {

    private static final Logger LOG = Logger.getLogger(ExportResource.class);

    private final AuditStream records;
    private final AuditLog log;
    private final ConsoleAccess access;
    private final SearchExport export;
    private final WriteDeadlines deadlines;
    private final TimeZones zones;

    ExportResource(AuditStream records, AuditLog log, ConsoleAccess access, WriteDeadlines deadlines, TimeZones zones,
            @ConfigProperty(name = "quarkus.application.version") String version) {
        this.zones = zones;
        this.records = records;
        this.deadlines = deadlines;
        this.log = log;
        this.access = access;
        this.export = new SearchExport(version);
    }

    @GET
    public Response export(@QueryParam("format") String formatName, @BeanParam SearchForm form, @Context RoutingContext rc,
            @Context UriInfo address) {
        ExportFormat format = ExportFormat.named(formatName);
        String detail = "format=" + formatName + " " + form.describe();
        if (!access.isAuditor()) {
            access.view(ConsoleAccess.Area.AUDIT, "console/export", detail); // records the refusal and throws
        }
        AuditQuery query;
        try {
            SearchForm.onlyItsParameters(address.getQueryParameters(), "format");
            if (format == null) {
                throw new IllegalArgumentException(SearchForm.blank(formatName) ? "'format' is missing. Use one of jsonl, csv, ocsf"
                        : "'format' is not a format an export is written in: " + SearchFormCheck.quoted(formatName.trim())
                                + ". Use one of jsonl, csv, ocsf");
            }
            query = form.query(1, form.zone(zones.of(access.identity().subject())));
        } catch (IllegalArgumentException e) {
            // Refused before anything is read or recorded as an export: on record as invalid, with why.
            throw access.refuse(AuditEvent.Kind.AUDIT_READ, "console/export", "invalid", detail + " refused: " + e.getMessage(), 400,
                    "Not exported: " + e.getMessage() + ".").backTo("/console/search" + (form.queryString().isEmpty() ? ""
                            : "?" + form.queryString()));
        }
        var held = access.viewHolding(ConsoleAccess.Area.AUDIT, LongReads.Kind.EXPORT, "console/export", detail);
        access.endOnRecord(); // its console/export/done record says how it ended
        String requestId = held.requestId();
        // Given back when the export ends, however it ends (also if the response is never written).
        rc.addEndHandler(ended -> held.place().close());
        var caller = access.caller();
        var request = rc.request();
        AuditQuery q = query;
        StreamingOutput body = out -> {
            var watch = deadlines.watch(WriteDeadlines.Kind.EXPORT, request, null);
            var digest = new DigestingOutputStream(watch.wrap(out));
            long items = 0;
            String outcome = "ok";
            try (var place = held.place(); watch) {
                items = export.write(format, each -> records.stream(q, SearchExport.byRequest(format), each), digest);
                digest.flush();
            } catch (IOException | RuntimeException e) {
                outcome = "aborted";
                // Broken off (the client gone, cut off at its write deadline, or the database): never seen as whole.
                request.response().reset();
                throw e;
            } finally {
                // A stream broken off counted nothing to the end: it is on record with the bytes written by then, never
                // with a count of the items the file holds.
                boolean whole = outcome.equals("ok");
                String ending = whole ? " " + items + (format == ExportFormat.OCSF ? " events" : " records")
                        : " broken off after " + digest.bytes() + " bytes";
                try {
                    log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, requestId).caller(caller).method("console/export/done")
                            .decision("ALLOW").outcome(outcome).bytes(digest.bytes())
                            .items(whole ? (int) Math.min(items, Integer.MAX_VALUE) : null)
                            .contentSha256(digest.sha256Hex()).detail(detail + ending).build());
                } catch (AuditUnavailableException e) {
                    LOG.errorf("could not record the end of export %s: %s", requestId, e.getMessage());
                }
            }
        };
        return Response.ok(body).type(format.mediaType + "; charset=utf-8").header("X-Request-Id", requestId)
                .header("Content-Disposition", "attachment; filename=\"quaestor-search-" + requestId + "." + format.extension + "\"")
                .build();
    }
}
