package dev.quaestor.console;

import dev.quaestor.admin.AdminConfig;
import dev.quaestor.admin.LetInCall;
import dev.quaestor.admin.StaffAccess;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.cases.CasesConfig;
import dev.quaestor.identity.AuthContext;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import io.quarkus.security.identity.SecurityIdentity;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.RequestScoped;
import jakarta.enterprise.inject.Instance;

/**
 * The console's door: who is signed in, whether their role opens a page, and the audit record of every page
 * view, export and sign-off, allowed or refused (PCI DSS 10.2.1.3 for reads of the audit trail, 10.2.1.2 for a
 * sign-off). Each record carries how the caller signed in, the ID token's {@code acr} and {@code amr}
 * ({@code acr=…;amr=…}), so that multi-factor sign-in shows in the evidence. If the record cannot be
 * committed, the page is not shown. A view let in (on record as {@code ok}) that then does not end as shown has a
 * second record under its request id saying how: found nothing ({@link #notFound}) or otherwise not answered
 * ({@link #notAnswered}), its answer lost on the way or a server error ({@link LetInCall}).
 */
@RequestScoped
public class ConsoleAccess {

    /** What a role may open. */
    public enum Area {
        /** Search, timelines, records, integrity, reviews, exports: the auditor role. */
        AUDIT,
        /** Policy status and history: the auditor or the administrator role. */
        POLICY,
        /**
         * Cases, their members, notes and holds: the auditor or the case administrator role. What a case reads of the
         * audit log (its searches, its requests, their records and its evidence bundle) is the auditor's ({@link #AUDIT}).
         */
        CASES
    }

    private final AuditLog log;
    private final IdentityMapper identities;
    private final SecurityIdentity security;
    private final RoutingContext rc;
    private final String auditorRole;
    private final String adminRole;
    private final String caseAdminRole;
    private final LongReads longReads;
    private Identity who;
    private Caller caller;
    /** The page view or action this request was let in as, once on record as {@code ok}; null before (or without) one. */
    private final LetInCall letIn;

    ConsoleAccess(AuditLog log, IdentityMapper identities, SecurityIdentity security, RoutingContext rc, AuditConfig audit,
            AdminConfig admin, CasesConfig cases, LongReads longReads, Instance<ConsoleRefusalMapper> refusals) {
        this.log = log;
        this.longReads = longReads;
        this.identities = identities;
        this.security = security;
        this.rc = rc;
        this.letIn = new LetInCall(log, rc, new ConsoleDoor(refusals));
        this.auditorRole = audit.auditorRole();
        this.adminRole = admin.role();
        this.caseAdminRole = cases.adminRole();
    }

    public Identity identity() {
        if (who == null) {
            who = identities.of(security);
        }
        return who;
    }

    public boolean mayOpen(Area area) {
        var roles = identity().roles();
        return roles.contains(auditorRole) || (area == Area.POLICY && roles.contains(adminRole))
                || (area == Area.CASES && roles.contains(caseAdminRole));
    }

    public boolean isAuditor() {
        return mayOpen(Area.AUDIT);
    }

    /** The caller as recorded: identity, source, user agent and {@code acr=…;amr=…}. */
    public Caller caller() {
        if (caller == null) {
            caller = StaffAccess.caller(identity(), rc.request(), authContext());
        }
        return caller;
    }

    /** {@code acr=…;amr=…} from the ID token (empty values when the provider sends none). */
    public String authContext() {
        return AuthContext.of(security);
    }

    /**
     * Records a page view or export of {@code area} as {@code AUDIT_READ} and returns the request id of the record;
     * throws {@link ConsoleRefusal} (also recorded) when the caller's role does not open it.
     */
    public String view(Area area, String method, String detail) {
        return record(AuditEvent.Kind.AUDIT_READ, area, method, null, detail);
    }

    /** As {@link #view}, recorded under {@code uri} (a case's), so that it shows in that uri's history. */
    public String view(Area area, String method, String uri, String detail) {
        return record(AuditEvent.Kind.AUDIT_READ, area, method, uri, detail);
    }

    /** A long read allowed and recorded: its record's request id and the place it holds until it ends. */
    public record Held(String requestId, LongReads.Place place) {
    }

    /**
     * As {@link #view}, for a long read that needs a place ({@link LongReads}): recorded once, as {@code ok} with the
     * place taken, or refused and recorded: {@code forbidden} (403) or {@code busy} when the caller is at a cap (429,
     * with {@code Retry-After} and a page that says when to try again). The caller closes the place when it ends.
     */
    public Held viewHolding(Area area, LongReads.Kind longRead, String method, String detail) {
        return viewHolding(area, longRead, method, null, detail);
    }

    /** As {@link #viewHolding(Area, LongReads.Kind, String, String)}, recorded under {@code uri} (a case's). */
    public Held viewHolding(Area area, LongReads.Kind longRead, String method, String uri, String detail) {
        boolean allowed = mayOpen(area);
        var attempt = allowed ? longReads.take(longRead, identity().subject()) : null;
        String outcome = !allowed ? "forbidden" : attempt.place() == null ? "busy" : "ok";
        String recorded = attempt != null && attempt.refusal() != null
                ? (detail == null ? "" : detail + " ") + "refused: " + attempt.refusal().reason() : detail;
        String id = RequestIds.next();
        try {
            log.appendCall(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, id).caller(caller()).method(method).uri(uri)
                    .decision(allowed ? "ALLOW" : "DENY").outcome(outcome).detail(recorded).build());
        } catch (RuntimeException e) {
            if (attempt != null && attempt.place() != null) {
                attempt.place().close();
            }
            throw e;
        }
        if (!allowed) {
            throw forbidden(id);
        }
        if (attempt.place() == null) {
            long after = attempt.refusal().retryAfterSeconds();
            String again = rc.request().method() == io.vertx.core.http.HttpMethod.GET ? rc.request().uri() : null;
            throw new ConsoleRefusal(429, "Too many at once: " + attempt.refusal().reason() + ". Nothing was started; try again in "
                    + after + " seconds.", id, after, again != null && again.startsWith("/console/") ? again : null);
        }
        letIn.letIn(new LetInCall.Call(AuditEvent.Kind.AUDIT_READ, caller(), method, uri, detail, id));
        return new Held(id, attempt.place());
    }

    /** Records an action that changes something (a sign-off) as {@code ADMIN}; refuses as {@link #view} does. */
    public String act(Area area, String method, String uri, String detail) {
        return record(AuditEvent.Kind.ADMIN, area, method, uri, detail);
    }

    /** Records a refused action (a form without its CSRF token, a sign-off that is not allowed) and throws. */
    public ConsoleRefusal refuse(AuditEvent.Kind kind, String method, String outcome, String detail, int status, String message) {
        return refuse(kind, method, null, outcome, detail, status, message);
    }

    /** As above, under the uri the refused action was about (a case, a hold), so that it shows in that uri's history. */
    public ConsoleRefusal refuse(AuditEvent.Kind kind, String method, String uri, String outcome, String detail, int status,
            String message) {
        String id = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, id).caller(caller()).method(method).uri(uri).decision("DENY").outcome(outcome).detail(detail)
                .build());
        return new ConsoleRefusal(status, message, id);
    }

    /** Records that the caller signed out of the session {@code sessionRef} (any signed-in caller may). */
    public void signedOut(String sessionRef) {
        log.append(AuditEvent.of(AuditEvent.Kind.AUDIT_READ, RequestIds.next()).caller(caller()).method("console/logout")
                .decision("ALLOW").outcome("ok").detail(sessionRef == null ? null : "session " + sessionRef).build());
    }

    /**
     * Records a console request refused because its session is not live ({@code outcome}: signed-out, idle-timeout,
     * expired, session-unknown, session-mismatch): an invalid access attempt, with the signed-in person's identity
     * and the address and user agent the request came from.
     */
    public void sessionRefused(String outcome, String detail) {
        log.append(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next()).caller(caller()).method("console/session")
                .decision("DENY").outcome(outcome).detail(detail).build());
    }

    private String record(AuditEvent.Kind kind, Area area, String method, String uri, String detail) {
        boolean allowed = mayOpen(area);
        String id = RequestIds.next();
        log.appendCall(AuditEvent.of(kind, id).caller(caller()).method(method).uri(uri).decision(allowed ? "ALLOW" : "DENY")
                .outcome(allowed ? "ok" : "forbidden").detail(detail).build());
        if (!allowed) {
            throw forbidden(id);
        }
        // A page view's answer is watched until it has reached the client; a change's is not (its page is a redirect).
        var call = new LetInCall.Call(kind, caller(), method, uri, detail, id);
        if (kind == AuditEvent.Kind.AUDIT_READ) {
            letIn.letIn(call);
        } else {
            letIn.changing(call);
        }
        return id;
    }

    /**
     * The view's end is on record by a record of its own (an export's {@code console/export/done}, a bundle's
     * {@code audit/bundle/made}): nothing to add, whatever becomes of its answer.
     */
    public void endOnRecord() {
        letIn.endOnRecord();
    }

    /**
     * The view or action this request was let in as (on record as {@code ok}) was not answered as such after all:
     * records that under its request id ({@code ALLOW}, {@code outcome}, {@code why} after its detail) and returns the
     * id; null if nothing was let in. Its first record then no longer stands alone for a page the person did not get.
     */
    public String notAnswered(String outcome, String why) {
        return letIn.notAnswered(outcome, why);
    }

    /**
     * The page let in finds nothing to show ({@code why}, as recorded): on record under the view's request id as
     * {@code not-found}, and answered by the 404 page saying {@code message}.
     */
    public ConsoleRefusal notFound(String why, String message) {
        return new ConsoleRefusal(404, message, notAnswered("not-found", why));
    }

    private ConsoleRefusal forbidden(String id) {
        return new ConsoleRefusal(403, "Your account (" + identity().subject() + ") has no role that opens this page. "
                + "The console is for the roles " + auditorRole + ", for policy pages " + adminRole + ", and for cases " + caseAdminRole
                + ".", id);
    }
}
