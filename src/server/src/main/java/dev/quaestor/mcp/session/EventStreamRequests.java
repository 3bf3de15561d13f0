package dev.quaestor.mcp.session;

import dev.quaestor.audit.record.Caller;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectCapReached;
import dev.quaestor.mcp.wire.Malformed;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.Subscriber;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jboss.logging.Logger;

/**
 * A GET to the endpoint: opens a 2025 session's server-to-client stream (SSE) of notifications of changed resources
 * and lists, plus keep-alive comments ({@link EventStreams}). One stream per session: a new GET replaces the old stream
 * (on any replica). The same session rules as a POST: a missing id 400, an unknown, ended, expired or another
 * subject's session 404, an {@code MCP-Protocol-Version} naming no 2025 revision 400, each on record
 * ({@link SessionlessRefusals}).
 */
@ApplicationScoped
public class EventStreamRequests {

    private static final Logger LOG = Logger.getLogger(EventStreamRequests.class);
    /** The method column of its records. */
    private static final String METHOD = "GET /mcp";

    /** What the GET got: its stream, or the response refusing it (complete once its record, if any, has committed). */
    public sealed interface Opening {
    }

    public record Opened(Multi<OutboundSseEvent> events) implements Opening {
    }

    public record Refused(CompletionStage<Response> response) implements Opening {
    }

    private final SessionStore sessions;
    private final EventStreams streams;
    private final CapRefusals caps;
    private final SessionlessRefusals sessionless;

    EventStreamRequests(SessionStore sessions, EventStreams streams, CapRefusals caps, SessionlessRefusals sessionless) {
        this.sessions = sessions;
        this.streams = streams;
        this.caps = caps;
        this.sessionless = sessionless;
    }

    public Opening open(SessionRpc.Inbound in, Sse sse) {
        String requestId = in.requestId();
        String sessionId = in.sessionHeader();
        if (sessionId == null || sessionId.isBlank()) {
            String message = "Missing Mcp-Session-Id header; call initialize first";
            return refused(sessionless.refuse(in, METHOD, Malformed.INVALID_REQUEST, message, 400, message));
        }
        Optional<SessionStore.Session> session;
        try {
            session = sessions.use(sessionId, in.identity().subject(), in.tokenExpiry());
        } catch (RuntimeException e) {
            LOG.errorf("session lookup failed for request %s: %s", requestId, e.toString());
            return refused(TextResponse.of(503, "Service unavailable", requestId));
        }
        if (session.isEmpty()) {
            return refused(sessionless.refuse(in, METHOD, SessionRpc.SESSION_UNKNOWN, "no live session of this subject by that id",
                    404, null));
        }
        if (in.version().refusedOnSessions()) {
            String message = "Unsupported MCP-Protocol-Version";
            return refused(sessionless.refuse(in, METHOD, Malformed.UNSUPPORTED_VERSION, message, 400, message));
        }
        SessionStore.Session s = session.get();
        Caller caller = in.callerIn(s);
        var holder = new StreamHolder(new Subscriber(in.identity(), in.sourceIp()), caller, requestId, s.revision().name());
        try {
            return new Opened(streams.open(sessionId, in.identity().subject(), holder, in.tokenExpiry(), sse));
        } catch (SubjectCapReached e) {
            return new Refused(caps.response(e.cap, caller, METHOD, e.detail()));
        } catch (RuntimeException e) {
            LOG.errorf("cannot open the stream for request %s: %s", requestId, e.toString());
            return refused(TextResponse.of(503, "Service unavailable", requestId));
        }
    }

    private static Refused refused(Response response) {
        return new Refused(CompletableFuture.completedFuture(response));
    }
}
