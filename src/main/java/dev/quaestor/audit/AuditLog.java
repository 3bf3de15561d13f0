package dev.quaestor.audit;

import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

/**
 * Appends audit records, each committed in its own transaction before {@link #append} returns.
 * Anything that stops the commit (database down, pool exhausted, constraint) surfaces as
 * {@link AuditUnavailableException} so the caller fails closed.
 */
@ApplicationScoped
public class AuditLog {

    private static final Logger LOG = Logger.getLogger(AuditLog.class);
    private static final int MAX_TEXT = 2048;

    public void append(AuditEvent e) {
        AuditEntry row = toEntry(e);
        try {
            QuarkusTransaction.requiringNew().timeout(10).run(row::persist);
        } catch (RuntimeException ex) {
            LOG.errorf("audit append failed for request %s: %s", e.requestId(), ex.toString());
            throw new AuditUnavailableException(ex);
        }
    }

    static AuditEntry toEntry(AuditEvent e) {
        var r = new AuditEntry();
        r.time = e.time();
        r.requestId = e.requestId();
        r.kind = e.kind().name();
        if (e.caller() != null) {
            r.sessionId = e.caller().sessionId();
            r.subject = cut(e.caller().subject());
            r.client = cut(e.caller().client());
            r.tenant = cut(e.caller().tenant());
            r.roles = cut(String.join(",", e.caller().roles()));
            r.sourceIp = e.caller().sourceIp();
            r.userAgent = cut(e.caller().userAgent());
        }
        r.method = e.method();
        r.action = e.action();
        r.uri = cut(e.uri());
        r.decision = e.decision();
        r.rules = e.rules().isEmpty() ? null : cut(String.join(",", e.rules()));
        r.policyRevision = e.policyRevision();
        r.outcome = e.outcome();
        r.errorCode = e.errorCode();
        r.bytes = e.bytes();
        r.items = e.items();
        r.contentSha256 = e.contentSha256();
        r.latencyMicros = e.latencyMicros();
        r.detail = e.detail() == null || e.detail().length() <= 4096 ? e.detail() : e.detail().substring(0, 4096);
        return r;
    }

    /** Bounds client-controlled text so a hostile value cannot bloat or break a row. */
    private static String cut(String s) {
        return s == null || s.length() <= MAX_TEXT ? s : s.substring(0, MAX_TEXT);
    }
}
