package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.read.AuditExport;
import dev.quaestor.audit.read.AuditProofs;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.audit.read.DigestingOutputStream;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.http.WriteDeadlines;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The auditor API (role {@code quaestor.audit.auditor-role}, default {@code quaestor-auditor}):
 * search, export, verify, and proofs of one request's records. Every call is itself audited (PCI DSS
 * 10.2.1.3), allowed or not; if it cannot be recorded, it does not happen. Exports and verifies take a place
 * ({@link LongReads}: capped overall and per person, 429 with {@code Retry-After} past a cap, also recorded); an
 * export's writes have a deadline ({@link WriteDeadlines}). A call takes only its own query parameters, each once,
 * with values it accepts; anything else is refused 400 before anything is read, on record as {@code invalid} with why
 * ({@link QueryCheck}). A call let in is on record as {@code ok} before anything of the audit trail is read, and its
 * answer names that record ({@code X-Request-Id}), as a refusal's names its own; one that
 * then finds nothing to answer with (404, 409) gets a second record under its request id with that outcome, and one
 * whose answer does not reach the client whole gets one saying so ({@code aborted}, {@link AnswerWatch}).
 */
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    /** The query parameters an export takes, and the formats it writes (JSON Lines when none is named). */
    static final List<String> EXPORT_PARAMS = List.of("from", "to", "format");
    static final List<String> EXPORT_FORMATS = List.of("jsonl", "csv");

    private static final Logger LOG = Logger.getLogger(AuditResource.class);

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
        String detail = params.recorded() + (params.limit == null ? "" : " limit=" + InvalidQuery.shown(params.limit));
        AuditQuery query;
        try {
            QueryCheck.only(request.params(), AuditSearchParams.NAMES);
            query = params.query();
        } catch (InvalidQuery e) {
            return invalid("audit/search", detail, e, request);
        }
        var call = admitAuditor(request, "audit/search", detail);
        var page = search.search(query);
        var body = new LinkedHashMap<String, Object>();
        body.put("records", page.records());
        body.put("nextCursor", page.nextCursor());
        return Response.ok(body).header("X-Request-Id", call.requestId()).build();
    }

    @GET
    @Path("export")
    @Produces({"application/jsonl", "text/csv"})
    public Response export(@QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("format") String format,
            @Context RoutingContext rc) {
        HttpServerRequest request = rc.request();
        String detail = QueryCheck.given("from", from, "to", to, "format", format);
        Instant f;
        Instant t;
        boolean csv;
        try {
            QueryCheck.only(request.params(), EXPORT_PARAMS);
            csv = "csv".equals(QueryCheck.oneOf("format", format, EXPORT_FORMATS));
            f = AuditSearchParams.instant("from", from);
            t = AuditSearchParams.instant("to", to);
            AuditSearchParams.inOrder("from", from, f, "to", to, t);
        } catch (InvalidQuery e) {
            return invalid("audit/export", detail, e, request);
        }
        var holding = access.admitHolding(auditorRole, AuditEvent.Kind.AUDIT_READ, LongReads.Kind.EXPORT,
                new StaffAccess.Call("audit/export", detail), request);
        LongReads.Place place = holding.place();
        AnswerWatch answer = access.answer();
        // Given back when the export ends, however it ends (also if the response is never written).
        rc.addEndHandler(ended -> place.close());
        StreamingOutput body = out -> {
            try (place; var watch = deadlines.watch(WriteDeadlines.Kind.EXPORT, request, null)) {
                var file = new DigestingOutputStream(watch.wrap(out));
                if (csv) {
                    export.exportCsv(f, t, file);
                } else {
                    export.exportJsonl(f, t, file);
                }
                file.flush();
                written(holding.admitted(), detail, file);
            } catch (java.io.UncheckedIOException e) {
                // The client is gone or was cut off at its write deadline: reset, so it never takes a part for whole.
                request.response().reset();
                answer.brokeOff("the export", e.getCause());
                throw e.getCause();
            } catch (RuntimeException e) {
                request.response().reset();
                answer.brokeOff("the export", e);
                throw e;
            }
        };
        return Response.ok(body).type(csv ? "text/csv" : "application/jsonl")
                .header("X-Request-Id", holding.admitted().requestId())
                .header("Content-Disposition", "attachment; filename=\"quaestor-audit." + (csv ? "csv" : "jsonl") + "\"").build();
    }

    /** What a value of a field would be stored as (hashed fields only; others are stored as given). */
    @GET
    @Path("hash")
    public Response hash(@QueryParam("field") String field, @QueryParam("value") String value, @Context HttpServerRequest request) {
        String detail = "field=" + field;
        try {
            QueryCheck.only(request.params(), List.of("field", "value"));
            if (field == null || value == null) {
                throw InvalidQuery.missing(field == null ? "field" : "value", "field and value are required");
            }
            List<String> fields = java.util.Arrays.stream(dev.quaestor.evidence.RecordField.values())
                    .map(dev.quaestor.evidence.RecordField::formatName).toList();
            if (!fields.contains(field)) {
                throw InvalidQuery.notOneOf("field", field, fields); // a field no record has is stored as nothing
            }
        } catch (InvalidQuery e) {
            return invalid("audit/hash", detail, e, request);
        }
        var call = admitAuditor(request, "audit/hash", detail);
        var h = log.hasher();
        return Response.ok(Map.of("field", field, "hashed", h.hashes(field), "stored", h.apply(field, value)))
                .header("X-Request-Id", call.requestId()).build();
    }

    @GET
    @Path("verify")
    public Response verify(@Context HttpServerRequest request) {
        try {
            QueryCheck.only(request.params(), List.of());
        } catch (InvalidQuery e) {
            return invalid("audit/verify", null, e, request);
        }
        Report r;
        var holding = access.admitHolding(auditorRole, AuditEvent.Kind.AUDIT_READ, LongReads.Kind.VERIFY,
                new StaffAccess.Call("audit/verify", null), request);
        try (var place = holding.place()) {
            r = verification.verify();
        }
        return Response.ok(verification.body(r)).header("X-Request-Id", holding.admitted().requestId()).build();
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
        String detail = QueryCheck.given("requestId", requestId);
        try {
            QueryCheck.only(request.params(), List.of("requestId"));
            if (requestId == null || requestId.isBlank()) {
                throw InvalidQuery.missing("requestId", "the request id of the records to prove, up to 64 characters");
            }
            if (requestId.length() > 64) {
                throw InvalidQuery.notA("requestId", requestId, "a request id, up to 64 characters");
            }
        } catch (InvalidQuery e) {
            return invalid("audit/proof", detail, e, request);
        }
        var call = admitAuditor(request, "audit/proof", detail);
        var proof = proofs.proof(requestId);
        if (proof.file() == null) {
            boolean none = proof.gap() == AuditProofs.Gap.NO_RECORD;
            access.notAnswered(none ? "not-found" : "unavailable", proof.unavailable());
            var r = Response.status(none ? 404 : 409).type(MediaType.APPLICATION_JSON).header("X-Request-Id", call.requestId())
                    .entity(Map.of("error", proof.unavailable()));
            return (proof.gap() == AuditProofs.Gap.NOT_YET ? r.header("Retry-After", "10") : r).build();
        }
        return Response.ok(proof.file(), "text/plain; charset=utf-8").header("X-Request-Id", call.requestId())
                .header("Content-Disposition", "attachment; filename=\"" + requestId + ".tlog-proof\"").build();
    }

    /** The signed checkpoint of a log at a size, as a note file (for {@code quaestor-verify consistency}). */
    @GET
    @Path("checkpoint")
    @Produces("text/plain")
    public Response checkpoint(@QueryParam("log") String logId, @QueryParam("size") String sizeGiven,
            @Context HttpServerRequest request) {
        String detail = QueryCheck.given("log", logId, "size", sizeGiven);
        long size;
        try {
            QueryCheck.only(request.params(), List.of("log", "size"));
            if (logId == null) {
                throw InvalidQuery.missing("log", "log and size are required");
            }
            size = QueryCheck.number("size", sizeGiven, 0, Long.MAX_VALUE, null);
        } catch (InvalidQuery e) {
            return invalid("audit/checkpoint", detail, e, request);
        }
        var call = admitAuditor(request, "audit/checkpoint", detail);
        var note = proofs.checkpointAt(logId, size);
        if (note.isEmpty()) {
            return notFound(call, "no checkpoint of that log at that size");
        }
        return Response.ok(note.get(), "text/plain; charset=utf-8").header("X-Request-Id", call.requestId()).build();
    }

    /** The consistency proof between two checkpointed sizes of a log (docs/audit-format.md, section 5). */
    @GET
    @Path("consistency")
    @Produces("text/plain")
    public Response consistency(@QueryParam("log") String logId, @QueryParam("from") String fromGiven,
            @QueryParam("to") String toGiven, @Context HttpServerRequest request) {
        String detail = QueryCheck.given("log", logId, "from", fromGiven, "to", toGiven);
        long from;
        long to;
        try {
            QueryCheck.only(request.params(), List.of("log", "from", "to"));
            if (logId == null) {
                throw InvalidQuery.missing("log", "log, from and to are required");
            }
            from = QueryCheck.number("from", fromGiven, 0, Long.MAX_VALUE, null);
            to = QueryCheck.number("to", toGiven, 0, Long.MAX_VALUE, null);
            if (from > to) {
                throw InvalidQuery.shrinking("from", fromGiven, "to", toGiven);
            }
        } catch (InvalidQuery e) {
            return invalid("audit/consistency", detail, e, request);
        }
        var call = admitAuditor(request, "audit/consistency", detail);
        var proof = proofs.consistency(logId, from, to);
        if (proof.isEmpty()) {
            return notFound(call, "both sizes must have a checkpoint of that log");
        }
        return Response.ok(proof.get(), "text/plain; charset=utf-8").header("X-Request-Id", call.requestId()).build();
    }

    /**
     * The export written whole: a second record under its request id, {@code audit/export/done}, with the file's size
     * and SHA-256, so that the file an auditor keeps can be tied to the log. One broken off is on record by the
     * answer's watch ({@code aborted}, with the bytes written by then).
     */
    private void written(StaffAccess.Admitted call, String detail, DigestingOutputStream file) {
        try {
            log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, call.requestId()).caller(call.caller()).method("audit/export/done")
                    .decision("ALLOW").outcome("ok").bytes(file.bytes()).contentSha256(file.sha256Hex()).detail(detail).build());
        } catch (AuditUnavailableException e) {
            LOG.errorf("could not record the end of export %s: %s", call.requestId(), e.getMessage());
        }
    }

    /**
     * Records the call and returns it if the caller is an auditor, else 403 (also recorded): its request id, which the
     * answer names and a later record of the call shares.
     */
    private StaffAccess.Admitted admitAuditor(HttpServerRequest request, String method, String detail) {
        return access.admit(auditorRole, AuditEvent.Kind.AUDIT_READ, method, detail, request);
    }

    /** A call refused for its query: on record as {@code invalid} with why, then answered 400 with what was wrong. */
    private Response invalid(String method, String detail, InvalidQuery e, HttpServerRequest request) {
        return e.response(access.refuse(auditorRole, AuditEvent.Kind.AUDIT_READ, method, detail, "invalid", e.getMessage(), request));
    }

    /**
     * A call let in that found nothing to answer with: a second record under its request id says so ({@code not-found},
     * with why), then it is answered 404.
     */
    private Response notFound(StaffAccess.Admitted call, String why) {
        access.notAnswered("not-found", why);
        return Response.status(404).type(MediaType.APPLICATION_JSON).header("X-Request-Id", call.requestId())
                .entity(Map.of("error", why)).build();
    }
}
