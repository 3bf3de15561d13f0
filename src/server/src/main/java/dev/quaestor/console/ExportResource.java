package dev.quaestor.console;

import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.AuditReader;
import dev.quaestor.audit.AuditUnavailableException;
import dev.quaestor.console.export.DigestingOutputStream;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.IOException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Exports of the current search as JSON Lines, CSV or OCSF 1.8.0, streamed from a database cursor. Two
 * records, one request id: the export's {@code AUDIT_READ} record (method {@code console/export}) is committed
 * before the first byte is sent, and when the stream ends a second one ({@code console/export/done}) carries
 * the SHA-256 and size of exactly the file produced and how many records or events it holds, or, if the
 * stream broke off, {@code aborted} with what had been sent. The digest can only be known at the end.
 */
@Path("/console/export")
public class ExportResource {

    private static final Logger LOG = Logger.getLogger(ExportResource.class);

    private final AuditReader reader;
    private final AuditLog log;
    private final ConsoleAccess access;
    private final SearchExport export;

    ExportResource(AuditReader reader, AuditLog log, ConsoleAccess access, @ConfigProperty(name = "quarkus.application.version") String version) {
        this.reader = reader;
        this.log = log;
        this.access = access;
        this.export = new SearchExport(version);
    }

    @GET
    public Response export(@QueryParam("format") String formatName, @BeanParam SearchForm form) {
        ExportFormat format = ExportFormat.named(formatName);
        String detail = "format=" + formatName + " " + form.describe();
        String requestId = access.view(ConsoleAccess.Area.AUDIT, "console/export", detail);
        if (format == null) {
            return Response.status(400).type(MediaType.TEXT_PLAIN).entity("format must be jsonl, csv or ocsf").build();
        }
        AuditReader.Query query;
        try {
            query = form.query(1);
        } catch (IllegalArgumentException e) {
            return Response.status(400).type(MediaType.TEXT_PLAIN).entity(e.getMessage()).build();
        }
        var caller = access.caller();
        StreamingOutput body = out -> {
            var digest = new DigestingOutputStream(out);
            long items = 0;
            String outcome = "ok";
            try {
                items = export.write(format, each -> reader.stream(query, SearchExport.byRequest(format), each), digest);
                digest.flush();
            } catch (IOException | RuntimeException e) {
                outcome = "aborted";
                throw e;
            } finally {
                try {
                    log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, requestId).caller(caller).method("console/export/done")
                            .decision("ALLOW").outcome(outcome).bytes(digest.bytes()).items((int) Math.min(items, Integer.MAX_VALUE))
                            .contentSha256(digest.sha256Hex()).detail(detail + " " + items + (format == ExportFormat.OCSF ? " events" : " records")).build());
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
