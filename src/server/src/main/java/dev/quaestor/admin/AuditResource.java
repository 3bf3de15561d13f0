package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.AuditExport;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.http.WriteDeadlines;
import dev.quaestor.identity.Identity;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.StreamingOutput;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The auditor API (role {@code quaestor.audit.auditor-role}, default {@code quaestor-auditor}):
 * search, export, verify, and proofs of one request's records. Every call is itself audited (PCI DSS
 * 10.2.1.3), allowed or not; if it cannot be recorded, it does not happen. Exports and verifies take a place
 * ({@link LongReads}: capped overall and per person, 429 with {@code Retry-After} past a cap, also recorded); an
 * export's writes have a deadline ({@link WriteDeadlines}).
 */
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    private final AuditSearch search;
    private final AuditExport export;
    private final AuditProofs proofs;
    private final VerifyAnswer verification;
    private final AuditLog log;
    private final StaffAccess access;
    private final String auditorRole;
    private final WriteDeadlines deadlines;

    AuditResource(AuditSearch search, AuditExport export, AuditProofs proofs, VerifyAnswer verification, AuditLog log,
            StaffAccess access, dev.quaestor.audit.config.AuditConfig config, WriteDeadlines deadlines) {
        this.deadlines = deadlines;
        this.search = search;
        this.export = export;
        this.proofs = proofs;
        this.verification = verification;
        this.log = log;
        this.access = access;
        this.auditorRole = config.auditorRole();
    }

    @GET
    @Path("search")
    public Response search(@BeanParam AuditSearchParams params, @Context HttpServerRequest request) {
        Identity who = requireAuditor(request, "audit/search", params.recorded() + (params.limit == null ? "" : " limit=" + params.limit));
        try {
            var page = search.search(params.query());
            var body = new LinkedHashMap<String, Object>();
            body.put("records", page.records());
            body.put("nextCursor", page.nextCursor());
            return Response.ok(body).build();
        } catch (NumberFormatException | DateTimeParseException e) {
            return Response.status(400).entity(Map.of("error", "invalid cursor or time (use ISO-8601, e.g. 2026-11-22T00:00:00Z)")).build();
        }
    }

    @GET
    @Path("export")
    @Produces({"application/jsonl", "text/csv"})
    public Response export(@QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("format") String format,
            @Context RoutingContext rc) {
        Instant f;
        Instant t;
        try {
            f = time(from);
            t = time(to);
        } catch (DateTimeParseException e) {
            requireAuditor(rc.request(), "audit/export", "from=" + from + " to=" + to + " format=" + format);
            return Response.status(400).type(MediaType.APPLICATION_JSON).entity(Map.of("error", "invalid time")).build();
        }
        HttpServerRequest request = rc.request();
        LongReads.Place place = access.requirePlace(auditorRole, LongReads.Kind.EXPORT, "audit/export",
                "from=" + from + " to=" + to + " format=" + format, request);
        // Given back when the export ends, however it ends (also if the response is never written).
        rc.addEndHandler(ended -> place.close());
        boolean csv = "csv".equals(format);
        StreamingOutput body = out -> {
            try (place; var watch = deadlines.watch(WriteDeadlines.Kind.EXPORT, request, null)) {
                if (csv) {
                    export.exportCsv(f, t, watch.wrap(out));
                } else {
                    export.exportJsonl(f, t, watch.wrap(out));
                }
            } catch (java.io.UncheckedIOException e) {
                // The client is gone or was cut off at its write deadline: reset, so it never takes a part for whole.
                request.response().reset();
                throw e.getCause();
            } catch (RuntimeException e) {
                request.response().reset();
                throw e;
            }
        };
        return Response.ok(body).type(csv ? "text/csv" : "application/jsonl")
                .header("Content-Disposition", "attachment; filename=\"quaestor-audit." + (csv ? "csv" : "jsonl") + "\"").build();
    }

    /** What a value of a field would be stored as (hashed fields only; others are stored as given). */
    @GET
    @Path("hash")
    public Response hash(@QueryParam("field") String field, @QueryParam("value") String value, @Context HttpServerRequest request) {
        requireAuditor(request, "audit/hash", "field=" + field);
        if (field == null || value == null) {
            return Response.status(400).entity(Map.of("error", "field and value are required")).build();
        }
        var h = log.hasher();
        return Response.ok(Map.of("field", field, "hashed", h.hashes(field), "stored", h.apply(field, value))).build();
    }

    @GET
    @Path("verify")
    public Map<String, Object> verify(@Context HttpServerRequest request) {
        Report r;
        try (var place = access.requirePlace(auditorRole, LongReads.Kind.VERIFY, "audit/verify", null, request)) {
            r = verification.verify();
        }
        return verification.body(r);
    }

    /**
     * The proof file of a request's records (docs/audit-format.md, section 4): each record, its
     * inclusion path and the checkpoint it leads to; nothing of any other record but hashes. Check it
     * offline with {@code java -jar quaestor-verify.jar check FILE --trust KEY}.
     */
    @GET
    @Path("proof")
    @Produces({"text/plain", MediaType.APPLICATION_JSON})
    public Response proof(@QueryParam("requestId") String requestId, @Context HttpServerRequest request) {
        requireAuditor(request, "audit/proof", "requestId=" + requestId);
        if (requestId == null || requestId.isBlank() || requestId.length() > 64) {
            return Response.status(400).type(MediaType.APPLICATION_JSON).entity(Map.of("error", "requestId is required")).build();
        }
        var proof = proofs.proof(requestId);
        if (proof.file() == null) {
            int status = proof.records() == 0 ? 404 : 409;
            var r = Response.status(status).type(MediaType.APPLICATION_JSON).entity(Map.of("error", proof.unavailable()));
            return (proof.later() ? r.header("Retry-After", "10") : r).build();
        }
        return Response.ok(proof.file(), "text/plain; charset=utf-8")
                .header("Content-Disposition", "attachment; filename=\"" + requestId + ".tlog-proof\"").build();
    }

    /** The signed checkpoint of a log at a size, as a note file (for {@code quaestor-verify consistency}). */
    @GET
    @Path("checkpoint")
    @Produces("text/plain")
    public Response checkpoint(@QueryParam("log") String logId, @QueryParam("size") Long size, @Context HttpServerRequest request) {
        requireAuditor(request, "audit/checkpoint", "log=" + logId + " size=" + size);
        if (logId == null || size == null) {
            return Response.status(400).type(MediaType.APPLICATION_JSON).entity(Map.of("error", "log and size are required")).build();
        }
        return proofs.checkpointAt(logId, size).map(n -> Response.ok(n, "text/plain; charset=utf-8").build())
                .orElseGet(() -> Response.status(404).type(MediaType.APPLICATION_JSON)
                        .entity(Map.of("error", "no checkpoint of that log at that size")).build());
    }

    /** The consistency proof between two checkpointed sizes of a log (docs/audit-format.md, section 5). */
    @GET
    @Path("consistency")
    @Produces("text/plain")
    public Response consistency(@QueryParam("log") String logId, @QueryParam("from") Long from, @QueryParam("to") Long to,
            @Context HttpServerRequest request) {
        requireAuditor(request, "audit/consistency", "log=" + logId + " from=" + from + " to=" + to);
        if (logId == null || from == null || to == null) {
            return Response.status(400).type(MediaType.APPLICATION_JSON).entity(Map.of("error", "log, from and to are required")).build();
        }
        return proofs.consistency(logId, from, to).map(p -> Response.ok(p, "text/plain; charset=utf-8").build())
                .orElseGet(() -> Response.status(404).type(MediaType.APPLICATION_JSON)
                        .entity(Map.of("error", "both sizes must have a checkpoint of that log, the first no larger than the second")).build());
    }

    private Identity requireAuditor(HttpServerRequest request, String method, String detail) {
        return access.require(auditorRole, AuditEvent.Kind.AUDIT_READ, method, detail, request);
    }

    private static Instant time(String s) {
        return AuditSearchParams.time(s);
    }
}
