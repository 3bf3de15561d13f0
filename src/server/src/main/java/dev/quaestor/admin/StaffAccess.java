package dev.quaestor.admin;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.identity.AuthContext;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.ForbiddenException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;

/**
 * The door to the administrator and auditor APIs: checks the caller's role and records the call,
 * allowed or not, before anything is answered (PCI DSS 10.2.1.2 for administration, 10.2.1.3 for
 * reads of the audit trail). If the record cannot be committed, the call does not happen. A call let in is on record
 * as {@code ok} before anything is read; if it then ends otherwise, a second record under its request id says how
 * ({@link #notAnswered}), and so does one for an answer that does not reach the client, or that is a server error no
 * such record explains ({@link AnswerWatch}): an auditor's, or an administrator's. A change is on record as {@code ok}
 * before it is stored ({@link #changing}); a change then not stored is on record as such under its request id
 * ({@link #notAnswered}, {@code error} or the refusal's outcome), and the answer to one stored is watched from then
 * on ({@link #stored}): lost, it is {@code aborted}, never a claim that the change did not happen.
 */
@RequestScoped
public class StaffAccess {

    private final AuditLog log;
    private final IdentityMapper identities;
    private final SecurityIdentity security;
    private final LongReads longReads;
    private final java.util.Optional<java.util.Set<String>> staffClients;
    /** The call this request was let in as, once recorded, until how it ended is known. */
    private final LetInCall letIn;

    StaffAccess(AuditLog log, IdentityMapper identities, SecurityIdentity security, LongReads longReads, AdminConfig config,
            RoutingContext rc) {
        this.log = log;
        this.letIn = new LetInCall(log, rc);
        this.staffClients = config.staffClients();
        this.longReads = longReads;
        this.identities = identities;
        this.security = security;
    }

    /** Records the call as {@code kind} and returns the caller if it holds {@code role}; else 403 (also recorded). */
    Identity require(String role, AuditEvent.Kind kind, String method, String detail, HttpServerRequest request) {
        return admit(role, kind, method, detail, request).who();
    }

    /** A call let in: who made it, as recorded, and the request id of its record (later records of the call share it). */
    public record Admitted(Identity who, Caller caller, String requestId) {
    }

    /** As {@link #require}, with the call's record: its caller and request id. */
    Admitted admit(String role, AuditEvent.Kind kind, String method, String detail, HttpServerRequest request) {
        Identity who = identities.of(security);
        String clientRefused = clientRefused(who);
        boolean allowed = who.roles().contains(role) && clientRefused == null;
        var caller = caller(who, request, AuthContext.of(security));
        String requestId = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, requestId).caller(caller).method(method)
                .decision(allowed ? "ALLOW" : "DENY").outcome(allowed ? "ok" : "forbidden")
                .detail(join(detail, clientRefused)).build());
        if (!allowed) {
            throw forbidden(requestId);
        }
        letIn.letIn(new LetInCall.Call(kind, caller, method, null, detail, requestId));
        return new Admitted(who, caller, requestId);
    }

    /**
     * Records a change its resource has judged and let in ({@code ADMIN}, {@code ALLOW}, {@code ok}) under {@code uri},
     * once the change is made and before it is stored; returns the record's request id. Until {@link #stored}, its
     * answer is not watched: a failure meanwhile means the change was not stored, which its caller puts on record under
     * that id ({@link #notAnswered}). If the record cannot be committed this throws, and the change is not stored.
     */
    String changing(String method, String uri, String detail, HttpServerRequest request) {
        Caller caller = caller(identity(), request, AuthContext.of(security));
        String id = RequestIds.next();
        log.appendCall(AuditEvent.of(AuditEvent.Kind.ADMIN, id).caller(caller).method(method).uri(uri).decision("ALLOW")
                .outcome("ok").detail(detail).build());
        letIn.changing(new LetInCall.Call(AuditEvent.Kind.ADMIN, caller, method, uri, detail, id));
        return id;
    }

    /**
     * The change on record by {@link #changing} is stored: from now on its answer is watched, and one that does not reach
     * the client, or that is a server error, is on record as {@code aborted} saying the change is stored
     * ({@link AnswerWatch#startStored}). Nothing if no change is on record as let in, or its end already is.
     */
    void stored() {
        letIn.stored();
    }

    /** The answer of the call let in, watched until it has reached the client; null if there is none. */
    AnswerWatch answer() {
        return letIn.answer();
    }

    /**
     * The call's end is on record by a record of its own (an evidence bundle's {@code not-made}): nothing to add,
     * whatever becomes of its answer.
     */
    void endOnRecord() {
        letIn.endOnRecord();
    }

    /**
     * The call this request was let in as (recorded {@code ok}) was not answered after all: records that, under the
     * call's request id ({@code ALLOW}, {@code outcome}, {@code why} after the call's detail), and returns that id; null
     * if no call was let in. Its first record then no longer stands alone for an answer the caller did not get.
     */
    String notAnswered(String outcome, String why) {
        return letIn.notAnswered(outcome, why);
    }

    /**
     * Records a call refused once let past the role check ({@code DENY}, the {@code outcome} given, {@code why} after
     * the detail) and returns its request id, for the caller to answer it; a caller without {@code role} is refused
     * 403 instead, on record as {@code forbidden}, as by {@link #require}.
     */
    String refuse(String role, AuditEvent.Kind kind, String method, String detail, String outcome, String why,
            HttpServerRequest request) {
        Identity who = identities.of(security);
        if (!admits(role, who)) {
            admit(role, kind, method, detail, request); // records the 403 and throws it
        }
        String requestId = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, requestId).caller(caller(who, request, AuthContext.of(security))).method(method)
                .decision("DENY").outcome(outcome).detail(join(detail, why)).build());
        return requestId;
    }

    private boolean admits(String role, Identity who) {
        return who.roles().contains(role) && clientRefused(who) == null;
    }

    /**
     * As {@link #require}, for a long read that needs a place ({@link LongReads}): the call is recorded once, as
     * {@code ok} with the place taken, {@code forbidden} (403), or {@code busy} when the caller is at a cap (429 with
     * {@code Retry-After}, nothing started). The caller closes the place when the read ends.
     */
    LongReads.Place requirePlace(String role, LongReads.Kind longRead, String method, String detail, HttpServerRequest request) {
        return requirePlace(role, AuditEvent.Kind.AUDIT_READ, longRead, new Call(method, detail), request);
    }

    /** A call as recorded: its method and detail. */
    record Call(String method, String detail) {
    }

    /** As above, recorded as {@code kind} (an administrator's long read of the log is an {@code ADMIN} call). */
    LongReads.Place requirePlace(String role, AuditEvent.Kind kind, LongReads.Kind longRead, Call call, HttpServerRequest request) {
        return admitHolding(role, kind, longRead, call, request).place();
    }

    /** A long read let in: the call's record (who, as recorded, and its request id) and the place it holds until it ends. */
    record Holding(Admitted admitted, LongReads.Place place) {
    }

    /** As {@link #requirePlace}, with the call's record, for a long read whose later records share its request id. */
    Holding admitHolding(String role, AuditEvent.Kind kind, LongReads.Kind longRead, Call call, HttpServerRequest request) {
        String method = call.method();
        String detail = call.detail();
        Identity who = identities.of(security);
        String clientRefused = clientRefused(who);
        boolean allowed = who.roles().contains(role) && clientRefused == null;
        var attempt = allowed ? longReads.take(longRead, who.subject()) : null;
        String outcome = !allowed ? "forbidden" : attempt.place() == null ? "busy" : "ok";
        String recorded = attempt != null && attempt.refusal() != null
                ? (detail == null ? "" : detail + " ") + "refused: " + attempt.refusal().reason() : join(detail, clientRefused);
        Caller caller = caller(who, request, AuthContext.of(security));
        String requestId = RequestIds.next();
        try {
            log.appendCall(AuditEvent.of(kind, requestId).caller(caller)
                    .method(method).decision(allowed ? "ALLOW" : "DENY").outcome(outcome).detail(recorded).build());
        } catch (RuntimeException e) {
            if (attempt != null && attempt.place() != null) {
                attempt.place().close();
            }
            throw e;
        }
        if (!allowed) {
            throw forbidden(requestId);
        }
        if (attempt.place() == null) {
            long after = attempt.refusal().retryAfterSeconds();
            throw new WebApplicationException(Response.status(429).header("Retry-After", Long.toString(after))
                    .header("X-Request-Id", requestId).type(MediaType.APPLICATION_JSON).entity(Map.of("error", "too many at once: "
                            + attempt.refusal().reason() + "; try again in " + after + " s", "retryAfterSeconds", after)).build());
        }
        letIn.letIn(new LetInCall.Call(kind, caller, method, null, detail, requestId));
        return new Holding(new Admitted(who, caller, requestId), attempt.place());
    }

    /** The caller as their token maps them; nothing is recorded (for a call judged first, then {@link #record}ed). */
    public Identity identity() {
        return identities.of(security);
    }

    /** A call as its resource judged it: what was asked, under which uri, and whether and how it was answered. */
    public record Judged(String method, String uri, boolean allowed, String outcome, String detail) {
    }

    /**
     * Records a call its resource has judged (allowed, or refused with the outcome it was refused with), as {@code kind};
     * returns the record's request id. If the record cannot be committed this throws, and the call does not happen.
     */
    public String record(AuditEvent.Kind kind, Judged call, HttpServerRequest request) {
        String id = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, id).caller(caller(identity(), request, AuthContext.of(security))).method(call.method())
                .uri(call.uri()).decision(call.allowed() ? "ALLOW" : "DENY").outcome(call.outcome()).detail(call.detail()).build());
        return id;
    }

    /**
     * Records a call its resource has judged and let in, as {@code kind}, {@code ALLOW} and {@code ok}, under {@code uri}
     * (null: none), before anything it answers with is read; returns the record's request id. As for a call let in by
     * {@link #admit}, a later failure is on record under that id ({@link #notAnswered}), and so is an answer that does
     * not reach the client ({@link AnswerWatch}). If the record cannot be committed this throws, and the call does not
     * happen. (A change is let in by {@link #changing}.)
     */
    public String letIn(AuditEvent.Kind kind, String method, String uri, String detail, HttpServerRequest request) {
        Caller caller = caller(identity(), request, AuthContext.of(security));
        String id = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, id).caller(caller).method(method).uri(uri).decision("ALLOW").outcome("ok").detail(detail)
                .build());
        letIn.letIn(new LetInCall.Call(kind, caller, method, uri, detail, id));
        return id;
    }

    /** A member of staff as recorded: who, from where, with which user agent, and how they signed in. */
    public static Caller caller(Identity who, HttpServerRequest request, String authContext) {
        return who.caller(SourceAddress.of(request), request.getHeader("User-Agent")).authenticatedBy(authContext);
    }

    /** Why the caller's client may not call these APIs ({@code quaestor.admin.staff-clients}), or null if it may. */
    String clientRefused(Identity who) {
        if (staffClients.isEmpty() || who.client() != null && staffClients.get().contains(who.client())) {
            return null;
        }
        return "client " + (who.client() == null ? "(none named)" : who.client()) + " is not one of quaestor.admin.staff-clients";
    }

    private static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + "; " + b;
    }

    /** The 403 of a call refused for its role or client, naming its record as every other refusal does. */
    private static ForbiddenException forbidden(String requestId) {
        return new ForbiddenException(Response.status(Response.Status.FORBIDDEN).header("X-Request-Id", requestId)
                .type(MediaType.APPLICATION_JSON).entity(Map.of("error", "forbidden: this call needs a role the token does not"
                        + " hold, or comes from a client not allowed to make it (quaestor.admin.staff-clients)")).build());
    }
}
