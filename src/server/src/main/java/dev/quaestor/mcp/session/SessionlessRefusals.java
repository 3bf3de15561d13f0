package dev.quaestor.mcp.session;

import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.mcp.wire.ProtocolRevision;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.pipeline.Reason;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;

/**
 * A GET or DELETE refused before it reached a session of its caller: no {@code Mcp-Session-Id}, none of the caller's
 * by that id (never opened, ended, expired, or another subject's), an {@code MCP-Protocol-Version} no session speaks.
 * Audited and paid for as a POST refused at the door is ({@link ResourcePipeline#rejectMalformed}), under the session
 * id it named, cut to the audit column's width, and answered once its record has committed, with that record's id: a
 * caller probing session ids leaves a trace of each probe. Runs on a worker (both methods are blocking).
 */
@ApplicationScoped
class SessionlessRefusals {

    /** The audit column's width for a session id. */
    private static final int SESSION_COLUMN = 128;

    /**
     * The context a request refused before its session is recorded under: no protocol revision, and the session id it
     * named, cut to the audit column's width.
     */
    static RequestContext contextOf(SessionRpc.Inbound in) {
        String named = in.sessionHeader();
        String recorded = named == null || named.length() <= SESSION_COLUMN ? named : named.substring(0, SESSION_COLUMN);
        return new RequestContext(in.requestId(), in.identity(), in.sourceIp(), in.userAgent(), recorded, null, null,
                ProtocolRevision.UNVERSIONED.pipeline());
    }

    private final ResourcePipeline pipeline;

    SessionlessRefusals(ResourcePipeline pipeline) {
        this.pipeline = pipeline;
    }

    /**
     * Records the refusal of {@code in} ({@code method}: {@code GET /mcp} or {@code DELETE /mcp}) as {@code outcome}
     * with {@code detail}, then answers {@code status} with {@code message} (none: an empty body).
     */
    Response refuse(SessionRpc.Inbound in, String method, String outcome, String detail, int status, String message) {
        RequestContext ctx = contextOf(in);
        RecordedRefusal record;
        try {
            record = pipeline.rejectMalformed(ctx, method, null, outcome, null, detail);
            if (record.merged()) {
                record.await();
            }
        } catch (Refusal r) {
            return refused(r, in.requestId());
        } catch (AuditUnavailableException e) {
            return unavailable(in.requestId());
        }
        return message == null ? TextResponse.status(status, record.requestId())
                : TextResponse.of(status, message, record.requestId());
    }

    /** The rate limit's or the audit log's own refusal, in words. */
    private static Response refused(Refusal r, String requestId) {
        if (r.reason() == Reason.RATE_LIMITED) {
            Object after = r.details().get("retryAfterSeconds");
            String id = r.pending() != null ? r.pending().requestId() : requestId;
            if (r.pending() != null) {
                try {
                    r.pending().await();
                } catch (AuditUnavailableException e) {
                    return unavailable(requestId);
                }
            }
            return Response.fromResponse(TextResponse.of(429, "Rate limit exceeded", id))
                    .header("Retry-After", after == null ? "1" : after.toString()).build();
        }
        return unavailable(requestId);
    }

    private static Response unavailable(String requestId) {
        return Response.fromResponse(TextResponse.of(503, "Service unavailable: the audit log cannot record this request",
                requestId)).header("Retry-After", "5").build();
    }
}
