package dev.quaestor.mcp.session;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.record.RequestIds;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * The audit records of a 2025 session's life: {@code SESSION_OPEN} when {@code initialize} opens it
 * (committed before its id is given out) and {@code SESSION_CLOSE} when it ends, by the client's DELETE
 * (committed before the DELETE is answered) or by expiry (committed before the sweep deletes its row).
 */
@ApplicationScoped
public class SessionAudit {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(SessionAudit.class);

    private final AuditLog audit;

    SessionAudit(AuditLog audit) {
        this.audit = audit;
    }

    /** Throws {@link dev.quaestor.audit.record.AuditUnavailableException} if it cannot be committed. */
    void opened(String requestId, Caller caller, SessionStore.Session s) {
        audit.append(AuditEvent.of(AuditEvent.Kind.SESSION_OPEN, requestId).caller(caller).protocol(s.revision().name())
                .method("initialize").outcome("ok")
                .detail(s.expiresAt() == null ? null : "token expires " + s.expiresAt()).build());
    }

    /** The client ended it (DELETE). Throws {@link dev.quaestor.audit.record.AuditUnavailableException} if it cannot be committed. */
    public void deleted(String requestId, Caller caller, String protocol) {
        audit.append(AuditEvent.of(AuditEvent.Kind.SESSION_CLOSE, requestId).caller(caller).protocol(protocol)
                .method("DELETE /mcp").outcome(SessionStore.End.DELETED.outcome).build());
    }

    /**
     * A DELETE whose {@code SESSION_CLOSE} was recorded but whose session could not be ended: a further
     * {@code SESSION_CLOSE}, {@code aborted}, says the session goes on. Committed before the DELETE is answered, so
     * the trail says so by the time the client is told; if it cannot be committed, that is logged.
     */
    void notEnded(String requestId, Caller caller, String protocol, String why) {
        try {
            audit.append(AuditEvent.of(AuditEvent.Kind.SESSION_CLOSE, requestId).caller(caller).protocol(protocol)
                    .method("DELETE /mcp").outcome("aborted").detail("the session was not ended and stays open: " + why)
                    .build());
        } catch (dev.quaestor.audit.record.AuditUnavailableException e) {
            LOG.errorf(
                    "request %s: the record of a session not ended could not be committed: %s", requestId, e.toString());
        }
    }

    /** Records the end of expired sessions; returns once all are committed, else throws. */
    void expired(List<SessionStore.Expired> sessions) {
        var pending = new java.util.ArrayList<PendingCommit>(sessions.size());
        for (SessionStore.Expired e : sessions) {
            SessionStore.Session s = e.session();
            var caller = Caller.ofSession(s.subject(), s.id(), s.clientInfo());
            pending.add(audit.submit(AuditEvent.of(AuditEvent.Kind.SESSION_CLOSE, RequestIds.next()).caller(caller)
                    .protocol(s.revision().name()).outcome(e.reason().outcome)
                    .detail(e.reason() == SessionStore.End.IDLE ? "last used " + s.lastUsed() : "token expired " + s.expiresAt())
                    .build()));
        }
        for (PendingCommit p : pending) {
            p.await();
        }
    }
}
