package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.policy.ExplainRequest;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.uri.InvalidUriException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Policy administration for holders of {@code quaestor.admin.role}: which revision is active and
 * why a given request would be allowed or denied. Every call is recorded ({@code ADMIN}), allowed or not; a call let in
 * and then refused for its body (400) gets a second record under its request id, {@code invalid} with why
 * ({@link StaffAccess#notAnswered}), which the answer's {@code X-Request-Id} names.
 */
@Path("/admin/policy")
@Produces(MediaType.APPLICATION_JSON)
public class PolicyAdminResource {

    private final PolicyStore store;
    private final StaffAccess access;
    private final AdminConfig config;
    private final StrictJson json;
    private final UnservedRules unserved;

    PolicyAdminResource(PolicyStore store, StaffAccess access, AdminConfig config, StrictJson json, UnservedRules unserved) {
        this.unserved = unserved;
        this.store = store;
        this.access = access;
        this.config = config;
        this.json = json;
    }

    @GET
    public Map<String, Object> status(@Context HttpServerRequest http) {
        access.require(config.role(), AuditEvent.Kind.ADMIN, "admin/policy/status", null, http);
        var set = store.current();
        var out = new LinkedHashMap<String, Object>();
        out.put("revision", set.revision());
        out.put("files", set.files());
        out.put("rules", set.rules().size());
        out.put("limits", set.limits().size());
        out.put("tests", set.tests().size());
        List<String> warnings = unserved.of(set);
        if (!warnings.isEmpty()) {
            out.put("warnings", warnings);
        }
        var refusal = store.refusal();
        out.put("state", refusal == null ? "ok" : "degraded");
        if (refusal != null) {
            out.put("rejectedRevision", refusal.candidateRevision());
            out.put("errors", refusal.errors().stream().map(Object::toString).toList());
        }
        return out;
    }

    @POST
    @Path("explain")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response explain(String body, @Context HttpServerRequest http) {
        StrictJson.Read<ExplainRequest> read = json.read(body, ExplainRequest.class);
        ExplainRequest request = read.value();
        // A body that cannot be read is on record as sent, so that what was asked is on record either way.
        String asked = request != null ? request.describe() : read.refused() ? StrictJson.asSent(body) : null;
        String requestId = access.admit(config.role(), AuditEvent.Kind.ADMIN, "admin/policy/explain", asked, http).requestId();
        if (read.refused()) {
            return refused(read.response(), read.error());
        }
        if (request == null) {
            return refused(Response.status(400).entity(Map.of("error", "a JSON body is required")).build(), "a JSON body is required");
        }
        try {
            return Response.ok(request.answer(store.current())).header("X-Request-Id", requestId).build();
        } catch (IllegalArgumentException | InvalidUriException e) {
            return refused(Response.status(400).entity(Map.of("error", e.getMessage())).build(), e.getMessage());
        }
    }

    /** A call let in, refused after all: on record as such under its request id ({@code invalid}, why), then answered. */
    private Response refused(Response answer, String why) {
        String requestId = access.notAnswered("invalid", why);
        return Response.fromResponse(answer).header("X-Request-Id", requestId).build();
    }
}
