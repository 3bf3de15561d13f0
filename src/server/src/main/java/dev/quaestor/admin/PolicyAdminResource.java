package dev.quaestor.admin;

import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.policy.ExplainRequest;
import dev.quaestor.policy.PolicyStore;
import dev.quaestor.uri.InvalidUriException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Policy administration for holders of {@code quaestor.admin.role}: which revision is active and
 * why a given request would be allowed or denied.
 */
@Path("/admin/policy")
@Produces(MediaType.APPLICATION_JSON)
public class PolicyAdminResource {

    private final PolicyStore store;
    private final IdentityMapper identities;
    private final SecurityIdentity security;
    private final AdminConfig config;

    PolicyAdminResource(PolicyStore store, IdentityMapper identities, SecurityIdentity security, AdminConfig config) {
        this.store = store;
        this.identities = identities;
        this.security = security;
        this.config = config;
    }

    @GET
    public Map<String, Object> status() {
        requireAdmin();
        var set = store.current();
        var out = new LinkedHashMap<String, Object>();
        out.put("revision", set.revision());
        out.put("files", set.files());
        out.put("rules", set.rules().size());
        out.put("limits", set.limits().size());
        out.put("tests", set.tests().size());
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
    public Response explain(ExplainRequest request) {
        requireAdmin();
        if (request == null) {
            return Response.status(400).entity(Map.of("error", "a JSON body is required")).build();
        }
        try {
            return Response.ok(request.answer(store.current())).build();
        } catch (IllegalArgumentException | InvalidUriException e) {
            return Response.status(400).entity(Map.of("error", e.getMessage())).build();
        }
    }

    private void requireAdmin() {
        Identity who = identities.of(security);
        if (!who.roles().contains(config.role())) {
            throw new ForbiddenException();
        }
    }
}
