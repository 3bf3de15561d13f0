package dev.quaestor.admin;

import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.SealKey;
import dev.quaestor.audit.read.AuditQuery;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.bundle.BundleSelection;
import dev.quaestor.bundle.EvidenceBundles;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /audit/bundle}: an evidence bundle (docs/audit-format.md, section 7) of a list of requests or of the
 * requests a search finds, for compliance staff (the auditor role). The call is on record before anything is read,
 * and the bundle's SHA-256 is on record, under the same request id, before it is sent ({@link EvidenceBundles}). Bundles
 * are made in places of their own ({@link LongReads.Kind#BUNDLE}): past their cap, overall or for one person, the call
 * is answered 429 with {@code Retry-After}, on record as {@code busy}, and nothing is read. The call takes no query
 * parameter: one given is refused 400 before anything is read, on record as {@code invalid} with why ({@link QueryCheck});
 * so is a body with a NUL character in a name or value, naming its field ({@link StrictJson#nulAt}).
 */
@Path("/audit/bundle")
public class AuditBundleResource {

    /** The body: request ids, or a search (the search API's filters), and the case it is for (optional). */
    public static class Ask {
        public List<String> requestIds;
        public Map<String, String> search;
        public String forCase;
    }

    /** The most of the body the call's record keeps. */
    private static final int MAX_DETAIL = 2000;

    private final EvidenceBundles bundles;
    private final ObjectMapper json;
    private final StrictJson strict;
    private final StaffAccess access;
    private final String auditorRole;

    AuditBundleResource(EvidenceBundles bundles, StaffAccess access, AuditConfig config, ObjectMapper json, StrictJson strict) {
        this.bundles = bundles;
        this.strict = strict;
        this.json = json;
        this.access = access;
        this.auditorRole = config.auditorRole();
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces({"application/zip", MediaType.APPLICATION_JSON})
    public Response make(String body, @Context HttpServerRequest request) {
        SealKey caseSeal = SealKey.fresh();
        String detail = recorded(body, caseSeal);
        try {
            QueryCheck.only(request.params(), List.of());
        } catch (InvalidQuery e) {
            return e.response(access.refuse(auditorRole, AuditEvent.Kind.AUDIT_READ, "audit/bundle", detail, "invalid", e.getMessage(),
                    request));
        }
        String nul = strict.nulAt(body);
        String half = nul == null ? strict.loneSurrogateAt(body) : null;
        if (nul != null || half != null) {
            String why = nul != null ? StrictJson.nulRefused(nul) : StrictJson.loneSurrogateRefused(half);
            String field = nul != null ? nul : half;
            String id = access.refuse(auditorRole, AuditEvent.Kind.AUDIT_READ, "audit/bundle", detail, "invalid", why, request);
            return Response.fromResponse(new StrictJson.Read<>(null, why, field.isEmpty() ? null : field).response())
                    .type(MediaType.APPLICATION_JSON).header("X-Request-Id", id).build();
        }
        var holding = access.admitHolding(auditorRole, AuditEvent.Kind.AUDIT_READ, LongReads.Kind.BUNDLE,
                new StaffAccess.Call("audit/bundle", detail), request);
        try (var place = holding.place()) {
            return make(body, caseSeal, holding.admitted());
        }
    }

    private Response make(String body, SealKey caseSeal, StaffAccess.Admitted admitted) {
        var maker = new EvidenceBundles.Maker(admitted.caller(), admitted.requestId());
        BundleSelection selection;
        try {
            selection = selection(body == null || body.isBlank() ? null : read(body), caseSeal);
        } catch (IllegalArgumentException | InvalidQuery e) {
            bundles.notMade(maker, e.getMessage());
            access.endOnRecord();
            return Response.status(400).type(MediaType.APPLICATION_JSON).header("X-Request-Id", admitted.requestId())
                    .entity(Map.of("error", e.getMessage())).build();
        }
        EvidenceBundles.Made made;
        try {
            made = bundles.make(selection, maker);
        } catch (RuntimeException e) {
            access.endOnRecord(); // its not-made record says how the call ended
            throw e;
        }
        if (!made.made()) {
            access.endOnRecord(); // its not-made record says how the call ended
            var r = Response.status(made.notMade().status()).type(MediaType.APPLICATION_JSON).header("X-Request-Id", admitted.requestId())
                    .entity(Map.of("error", made.refused(), "requestId", admitted.requestId()));
            return (made.notMade() == EvidenceBundles.NotMade.NOT_YET ? r.header("Retry-After", "10") : r).build();
        }
        return Response.ok(made.zip(), "application/zip").header("X-Request-Id", admitted.requestId())
                .header("Digest", "sha-256=" + java.util.Base64.getEncoder().encodeToString(java.util.HexFormat.of().parseHex(made.sha256())))
                .header("Content-Disposition", "attachment; filename=\"quaestor-bundle-" + admitted.requestId() + ".zip\"").build();
    }

    /**
     * The body as the call's record keeps it: as sent, but the case it is for ({@code forCase}, a case's name is its
     * title) only sealed under {@code caseSeal}, the key the bundle's manifest gives its holders; a body that is not
     * JSON not at all (it may name a case, and no bundle is made of it).
     */
    String recorded(String body, SealKey caseSeal) {
        if (body == null || body.isBlank()) {
            return "no body";
        }
        String kept;
        try {
            var tree = json.readTree(body);
            if (tree instanceof ObjectNode o && o.hasNonNull("forCase")) {
                var name = o.get("forCase");
                o.put("forCase", EvidenceBundles.caseNamed(caseSeal, name.isTextual() ? name.asText() : name.toString()));
            }
            kept = json.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            return "a body that is not JSON (not kept)";
        }
        return kept.length() > MAX_DETAIL ? kept.substring(0, MAX_DETAIL) + "…" : kept;
    }

    /** The body read strictly ({@link StrictJson}): one that is not JSON, or not this call's, is refused naming why. */
    private Ask read(String body) {
        var read = strict.read(body, Ask.class);
        if (read.refused()) {
            throw new IllegalArgumentException(read.error() + "; give {\"requestIds\": [...]} or {\"search\": {...}}, and \"forCase\" "
                    + "if it is for a case");
        }
        return read.value();
    }

    static BundleSelection selection(Ask ask, SealKey caseSeal) {
        if (ask == null) {
            throw new IllegalArgumentException("give {\"requestIds\": [...]} or {\"search\": {...}}, and \"forCase\" if it is for a case");
        }
        if (ask.search == null && ask.requestIds == null) {
            throw new IllegalArgumentException("give request ids or a search: {\"requestIds\": [...]} or {\"search\": {...}}");
        }
        if (ask.search == null) {
            return BundleSelection.ofRequests(ask.requestIds, ask.forCase, caseSeal);
        }
        if (ask.requestIds != null) {
            throw new IllegalArgumentException("give either request ids or a search, not both");
        }
        var s = ask.search;
        var known = List.of("subject", "client", "tenant", "uriPrefix", "action", "decision", "outcome", "kind", "from", "to");
        for (String k : s.keySet()) {
            if (!known.contains(k)) {
                throw new IllegalArgumentException("a search filters by " + String.join(", ", known) + ", not " + k);
            }
        }
        // Checked as the search API checks its parameters, each named where it is in the body.
        QueryCheck.oneOf("search.kind", s.get("kind"), AuditFilters.KINDS);
        QueryCheck.oneOf("search.decision", s.get("decision"), AuditFilters.DECISIONS);
        var from = AuditSearchParams.instant("search.from", s.get("from"));
        var to = AuditSearchParams.instant("search.to", s.get("to"));
        AuditSearchParams.inOrder("search.from", s.get("from"), from, "search.to", s.get("to"), to);
        var q = new AuditQuery(s.get("subject"), s.get("client"), s.get("tenant"), s.get("uriPrefix"), s.get("action"), s.get("decision"),
                s.get("outcome"), s.get("kind"), from, to, null, BundleSelection.MAX_SEARCH_RECORDS);
        return BundleSelection.ofSearch(q, ask.forCase, caseSeal);
    }
}
