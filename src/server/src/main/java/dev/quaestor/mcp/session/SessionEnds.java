package dev.quaestor.mcp.session;

import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.mcp.wire.Malformed;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.subscription.SubscriptionStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * A DELETE to the endpoint: the client ends its 2025 session. The end is audited ({@code SESSION_CLOSE}) before
 * anything is ended; then the session, its stream on this replica and its subscriptions end. A missing session id
 * is 400; an unknown, ended or another subject's session 404, each on record ({@link SessionlessRefusals}); an end
 * that cannot be recorded 503, and nothing ends.
 */
@ApplicationScoped
public class SessionEnds {

    private static final Logger LOG = Logger.getLogger(SessionEnds.class);
    /** The method column of its records. */
    private static final String METHOD = "DELETE /mcp";

    private final SessionStore sessions;
    private final SessionAudit audit;
    private final EventStreams streams;
    private final SubscriptionStore subscriptions;
    private final SessionlessRefusals sessionless;

    SessionEnds(SessionStore sessions, SessionAudit audit, EventStreams streams, SubscriptionStore subscriptions,
            SessionlessRefusals sessionless) {
        this.sessionless = sessionless;
        this.sessions = sessions;
        this.audit = audit;
        this.streams = streams;
        this.subscriptions = subscriptions;
    }

    public Response end(SessionRpc.Inbound in) {
        String requestId = in.requestId();
        String sessionId = in.sessionHeader();
        if (sessionId == null || sessionId.isBlank()) {
            String message = "Missing Mcp-Session-Id header: DELETE /mcp ends the session it names";
            return sessionless.refuse(in, METHOD, Malformed.INVALID_REQUEST, message, 400, message);
        }
        String subject = in.identity().subject();
        Optional<SessionStore.Session> session;
        try {
            session = sessions.find(sessionId, subject);
        } catch (RuntimeException e) {
            LOG.warnf("request %s: the session store could not be read: %s", requestId, e.toString());
            return unavailable("the session store cannot be read", requestId);
        }
        if (session.isEmpty()) {
            return sessionless.refuse(in, METHOD, SessionRpc.SESSION_UNKNOWN, "no live session of this subject by that id", 404,
                    null);
        }
        SessionStore.Session s = session.get();
        try {
            audit.deleted(requestId, in.callerIn(s), s.revision().name());
        } catch (AuditUnavailableException e) {
            return TextResponse.of(503, "Service unavailable: the audit log cannot record this request", requestId);
        }
        boolean ended;
        try {
            ended = sessions.end(sessionId, subject);
        } catch (RuntimeException e) {
            // Its SESSION_CLOSE is on record, and the session goes on: a further record says so.
            LOG.warnf("request %s: the session could not be ended: %s", requestId, e.toString());
            audit.notEnded(requestId, in.callerIn(s), s.revision().name(), "the session store failed: " + e.getClass().getSimpleName());
            return unavailable("the session could not be ended", requestId);
        }
        if (!ended) {
            return TextResponse.status(404, requestId);
        }
        // The stream here ends now; a stream on another replica ends at that replica's next check.
        streams.close(sessionId);
        try {
            subscriptions.removeSession(sessionId);
        } catch (RuntimeException e) {
            // The session has ended, so its subscriptions can never be delivered; the sweep removes them.
            LOG.warnf("subscriptions of ended session could not be removed: %s", e.toString());
        }
        return TextResponse.status(204, requestId);
    }

    private static Response unavailable(String why, String requestId) {
        return Response.fromResponse(TextResponse.of(503, "Service unavailable: " + why, requestId)).header("Retry-After", "5")
                .build();
    }
}
