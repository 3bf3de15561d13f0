package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.cases.CaseRefusal;
import dev.quaestor.cases.Holds;
import dev.quaestor.cases.NewHold;
import dev.quaestor.cases.Staff;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * A case's legal holds: list, put, widen, ask for a release, release (a second person: four eyes). For the case's
 * members and the case administrator role; each change is an {@code ADMIN} record under the hold's uri before it is
 * stored (and its end, if it was not stored or its answer was lost, a second record under its request id:
 * {@link CaseCalls}), each refusal is on record too. A call takes no query parameter: one given is refused 400, on record as
 * {@code invalid} ({@link CaseCalls#takesOnly}).
 */
@Path("/audit/cases/{id}/holds")
@Produces(MediaType.APPLICATION_JSON)
public class HoldResource {

    public record Widening(String from, String to) {
    }

    public record ReleaseAsk(String reason) {
    }

    private final Holds holds;
    private final CaseCalls calls;

    HoldResource(Holds holds, CaseCalls calls) {
        this.holds = holds;
        this.calls = calls;
    }

    @GET
    public Response list(@PathParam("id") long id, @Context HttpServerRequest http) {
        String method = "audit/cases/holds";
        Staff staff = calls.staff(http, AuditEvent.Kind.AUDIT_READ, method, id);
        calls.takesOnly(CaseResource.NONE, http, AuditEvent.Kind.AUDIT_READ, method, id);
        try {
            var list = holds.ofCase(id, staff);
            calls.read(method, id, list.size() + " hold(s)", http);
            return Response.ok(Map.of("holds", list)).build();
        } catch (CaseRefusal r) {
            return calls.refused(AuditEvent.Kind.AUDIT_READ, method, id, r, http);
        }
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("id") long id, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/hold/put";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(CaseResource.NONE, http, AuditEvent.Kind.ADMIN, method, id);
        NewHold body = calls.body(text, NewHold.class, http, method, id);
        NewHold spec = body == null ? new NewHold(null, null, null, null, null) : body;
        return calls.change(method, id, http, () -> Response.status(201).entity(holds.put(id, staff, spec,
                calls.recorder(method, http))).build());
    }

    @POST
    @Path("{hold}/widen")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response widen(@PathParam("id") long id, @PathParam("hold") long hold, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/hold/widen";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(CaseResource.NONE, http, AuditEvent.Kind.ADMIN, method, id);
        Widening body = calls.body(text, Widening.class, http, method, id);
        return calls.change(method, id, http, () -> Response.ok(holds.widen(id, hold, staff, body == null ? null : body.from(),
                body == null ? null : body.to(), calls.recorder(method, http))).build());
    }

    @POST
    @Path("{hold}/release-request")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response askRelease(@PathParam("id") long id, @PathParam("hold") long hold, String text, @Context HttpServerRequest http) {
        String method = "audit/cases/hold/ask-release";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(CaseResource.NONE, http, AuditEvent.Kind.ADMIN, method, id);
        ReleaseAsk body = calls.body(text, ReleaseAsk.class, http, method, id);
        return calls.change(method, id, http, () -> Response.ok(holds.askRelease(id, hold, staff, body == null ? null : body.reason(),
                calls.recorder(method, http))).build());
    }

    @POST
    @Path("{hold}/release")
    public Response release(@PathParam("id") long id, @PathParam("hold") long hold, @Context HttpServerRequest http) {
        String method = "audit/cases/hold/release";
        Staff staff = calls.staff(http, AuditEvent.Kind.ADMIN, method, id);
        calls.takesOnly(CaseResource.NONE, http, AuditEvent.Kind.ADMIN, method, id);
        return calls.change(method, id, http, () -> Response.ok(holds.release(id, hold, staff, calls.recorder(method, http))).build());
    }
}
