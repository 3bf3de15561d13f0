package dev.quaestor.mcp.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.quaestor.audit.AuditUnavailableException;
import dev.quaestor.audit.RequestIds;
import dev.quaestor.http.SourceAddress;
import dev.quaestor.http.WriteDeadlines;
import dev.quaestor.identity.Identity;
import dev.quaestor.identity.IdentityMapper;
import dev.quaestor.mcp.limits.BodyBudget;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectCapReached;
import dev.quaestor.mcp.session.EventStreams;
import dev.quaestor.mcp.session.SessionAudit;
import dev.quaestor.mcp.session.SessionRpc;
import dev.quaestor.mcp.session.SessionStore;
import dev.quaestor.mcp.stateless.Check;
import dev.quaestor.mcp.stateless.Listen;
import dev.quaestor.mcp.stateless.ListenRequests;
import dev.quaestor.mcp.stateless.RequestHeaders;
import dev.quaestor.mcp.stateless.StatelessRpc;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.VersionHeader;
import dev.quaestor.mcp.wire.WireErrors;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.subscription.StreamHolder;
import dev.quaestor.subscription.Subscriber;
import dev.quaestor.subscription.SubscriptionStore;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.sse.OutboundSseEvent;
import jakarta.ws.rs.sse.Sse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The MCP Streamable HTTP endpoint, for both protocol eras on one URL. Origin/Host checks and
 * authentication have run before any method here; each method first refuses a token without the
 * required scopes ({@link RequiredScopes}).
 *
 * <p>A POST is routed by what it carries ({@link EraRouter}): a 2026-07-28 request (its {@code _meta}
 * claims the version) is served statelessly by {@link StatelessRpc}, or, for {@code subscriptions/listen},
 * as an SSE stream by {@link #listen} and {@link ListenRequests}; anything else is a 2025 request on a
 * session ({@link SessionRpc}). Answers are JSON, or a one-event SSE stream when the client accepts only
 * that. GET opens a 2025 session's server-to-client stream of notifications ({@link EventStreams}), DELETE
 * ends a 2025 session, its stream and its subscriptions.
 *
 * <p>A refusal counted in a summary of refusals still to commit (past the caller's attempt limit) is answered only
 * once that summary has committed, within the merge window. Meanwhile the request holds no worker thread and no place
 * of the admission limit: its answer is completed asynchronously ({@link #later}).
 */
@Path("/mcp")
public class McpEndpoint {

    private static final Logger LOG = Logger.getLogger(McpEndpoint.class);

    @Inject
    ObjectMapper json;
    @Inject
    SecurityIdentity security;
    @Inject
    IdentityMapper identities;
    @Inject
    SessionStore sessions;
    @Inject
    SessionAudit sessionAudit;
    @Inject
    EventStreams streams;
    @Inject
    SubscriptionStore subscriptions;
    @Inject
    StreamedResponses streamed;
    @Inject
    RequestBodyReader bodies;
    @Inject
    JsonBodies jsonBodies;
    @Inject
    RequiredScopes scopes;
    @Inject
    StatelessRpc stateless;
    @Inject
    SessionRpc sessionRpc;
    @Inject
    ListenRequests listens;
    @Inject
    AdmissionLimit admission;
    @Inject
    WriteDeadlines deadlines;
    @Inject
    CapRefusals caps;
    @Inject
    BodyBudget bodyBudget;

    /** Whether a request path is this endpoint's (the HTTP filters in front of it ask). */
    static boolean handles(String path) {
        return path != null && (path.equals("/mcp") || path.startsWith("/mcp/"));
    }

    /**
     * A POST read and parsed, with its {@code MCP-Protocol-Version} header read once, or the response that refuses it
     * (complete once its record, if any, has committed).
     */
    private record Parsed(JsonNode root, VersionHeader version, Identity identity, String sourceIp, String userAgent,
            boolean sse, CompletionStage<Response> refusal) {
    }

    /**
     * The body is read by {@link RequestBodyReader}: over HTTP/1.x on the I/O thread, before this worker takes the request.
     * The answer is complete at once unless it waits for a summary of refusals to commit ({@link #later}).
     */
    @POST
    @Blocking
    public CompletionStage<Response> post(@Context RoutingContext rc, @Context HttpHeaders headers,
            @Context HttpServerRequest request) {
        String requestId = RequestIds.next();
        CompletableFuture<String> lost = lostBecause(rc);
        Parsed p = parse(rc, headers, request, requestId);
        if (p.refusal() != null) {
            return later(rc, p.refusal());
        }
        EraRouter.Route route = EraRouter.route(p.root(), p.version());
        Answer answer = switch (route.era()) {
            case MODERN -> stateless.handle(p.root(), modernInbound(headers, p, route, requestId));
            case LEGACY -> sessionRpc.post(p.root(), new SessionRpc.Inbound(requestId, p.identity(), p.sourceIp(),
                    p.userAgent(), tokenExpiry(), headers.getHeaderString(McpHeaders.SESSION), p.version()));
            case MIXED_BATCH -> WireErrors.legacy(NullNode.instance, ErrorCodes.INVALID_REQUEST,
                    "A JSON-RPC batch cannot carry 2026-07-28 requests (that revision has no batches)", requestId, 400);
        };
        if (answer.undelivered() != null) {
            // Its records say what was served: if it never reaches the client, they say that too.
            lost.thenAccept(why -> {
                if (why != null) {
                    answer.undelivered().record(why);
                }
            });
        }
        if (answer.later() == null) {
            return CompletableFuture.completedFuture(render(answer, p.sse(), request, requestId));
        }
        return later(rc, answer.later().thenApply(a -> render(a, p.sse(), request, requestId)));
    }

    /**
     * Why the response to this request did not reach the client (the connection closed, or writing failed, before
     * its end), or null once it has been written whole. Watched from the start, so a close before the answer exists
     * is not missed.
     */
    private static CompletableFuture<String> lostBecause(RoutingContext rc) {
        var lost = new CompletableFuture<String>();
        rc.addEndHandler(done -> lost.complete(done.succeeded() ? null : String.valueOf(done.cause())));
        return lost;
    }

    /**
     * A response that is complete once a record has committed: given back at once if it is, else completed later (on
     * the audit writer's thread) while the request gives back its admission place, as a waiting refusal does no work.
     */
    private CompletionStage<Response> later(RoutingContext rc, CompletionStage<Response> response) {
        if (!response.toCompletableFuture().isDone()) {
            admission.release(rc);
        }
        return response;
    }

    /** The same for methods that stream (SSE), which can only throw a response that is not their stream. */
    private RuntimeException refusal(RoutingContext rc, CompletionStage<Response> response) {
        CompletableFuture<Response> f = response.toCompletableFuture();
        if (f.isDone()) {
            return new WebApplicationException(f.join());
        }
        admission.release(rc);
        return new DeferredResponse(response);
    }

    /** Sends a {@link DeferredResponse} once it is complete, holding no worker thread meanwhile. */
    @ServerExceptionMapper
    Uni<Response> deferred(DeferredResponse e) {
        return Uni.createFrom().completionStage(e.response());
    }

    /**
     * A 2026-07-28 {@code subscriptions/listen}: its answer is a stream of notifications (SSE) that stays open.
     * {@link ListenRouting} sends here every POST to /mcp whose {@code Mcp-Method} header says
     * {@code subscriptions/listen}; one whose body is not such a request is answered as any other POST.
     * Refusals are ordinary JSON answers, before any stream opens.
     */
    @POST
    @Path(ListenRouting.PATH)
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    public Multi<OutboundSseEvent> listen(@Context RoutingContext rc, @Context HttpHeaders headers,
            @Context HttpServerRequest request, @Context Sse sse) {
        if (!"/mcp".equals(request.path())) {
            // Only reachable through the routing of a POST to /mcp, never by its own path.
            throw new WebApplicationException(Response.status(404).build());
        }
        String requestId = RequestIds.next();
        Parsed p = parse(rc, headers, request, requestId);
        if (p.refusal() != null) {
            throw refusal(rc, p.refusal());
        }
        EraRouter.Route route = EraRouter.route(p.root(), p.version());
        if (route.era() != EraRouter.Era.MODERN || !"subscriptions/listen".equals(p.root().path("method").asText(null))) {
            throw refusal(rc, post(rc, headers, request));
        }
        Check checked = stateless.check(p.root(), modernInbound(headers, p, route, requestId));
        if (checked instanceof Check.Answered refused) {
            throw refusal(rc, refused.answer().settled().thenApply(a -> render(a, false, request, requestId)));
        }
        Listen listen = listens.open((Check.Passed) checked, tokenExpiry(), sse);
        if (listen instanceof Listen.Refused refused) {
            throw refusal(rc, refused.answer().settled().thenApply(a -> render(a, false, request, requestId)));
        }
        // The request itself is done; its stream must not hold one of the replica's in-flight places.
        admission.release(rc);
        // Set on the HTTP response directly: a streamed answer has no Response of its own to carry it.
        request.response().putHeader(McpHeaders.REQUEST_ID, requestId);
        Multi<OutboundSseEvent> events = ((Listen.Opened) listen).events();
        return deadlines.watch(WriteDeadlines.Kind.EVENTS, request, events, McpEndpoint::eventBytes);
    }

    private Parsed parse(RoutingContext rc, HttpHeaders headers, HttpServerRequest request, String requestId) {
        Identity identity = identities.of(security);
        byte[] body;
        try {
            body = bodies.body(rc, identity);
        } catch (RequestBodyReader.Refused e) {
            if (e.cap != null) {
                return refused(caps.response(e.cap, CapRefusals.caller(identity, rc), "POST /mcp", e.getMessage()));
            }
            return refused(CompletableFuture.completedFuture(plain(e.status, e.getMessage().strip(), requestId)));
        }
        // A large body pays for its size before it is parsed or takes a place in flight.
        if (!bodyBudget.charge(CapRefusals.key(identity, rc), body.length)) {
            return refused(caps.response(Cap.BODY_BYTES, CapRefusals.caller(identity, rc), "POST /mcp",
                    bodyBudget.detail(body.length)));
        }
        // Over HTTP/2 the body is read here, so the request takes its place in flight only now (HTTP/1.x: it has one).
        Cap full = admission.admit(rc, identity);
        if (full != null) {
            return refused(caps.response(full, CapRefusals.caller(identity, rc), "POST /mcp", admission.detail(full)));
        }
        String accept = headers.getHeaderString(HttpHeaders.ACCEPT);
        boolean sse = acceptsOnlySse(accept);
        if (!sse && !acceptsJson(accept)) {
            return refused(CompletableFuture.completedFuture(
                    plain(406, "Accept must include application/json or text/event-stream", requestId)));
        }
        String contentType = headers.getHeaderString(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && !contentType.toLowerCase().startsWith("application/json")) {
            return refused(CompletableFuture.completedFuture(plain(415, "Content-Type must be application/json", requestId)));
        }
        String sourceIp = SourceAddress.of(request);
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);
        CompletionStage<Response> scope = scopes.refuse(identity, request, requestId, sourceIp, userAgent);
        if (scope != null) {
            return refused(scope);
        }
        VersionHeader version = VersionHeader.of(headers.getHeaderString(McpHeaders.PROTOCOL_VERSION));
        JsonNode root = JsonBodies.declaresUtf8(contentType) ? jsonBodies.parse(body) : null;
        if (root == null) {
            Answer a = version.namesStateless() ? WireErrors.modern(null, ErrorCodes.PARSE_ERROR, "Parse error", requestId, 400)
                    : WireErrors.legacy(NullNode.instance, ErrorCodes.PARSE_ERROR, "Parse error", requestId, 400);
            return refused(CompletableFuture.completedFuture(render(a, sse, request, requestId)));
        }
        return new Parsed(root, version, identity, sourceIp, userAgent, sse, null);
    }

    private static Parsed refused(CompletionStage<Response> r) {
        return new Parsed(null, null, null, null, null, false, r);
    }

    private StatelessRpc.Inbound modernInbound(HttpHeaders headers, Parsed p, EraRouter.Route route, String requestId) {
        return new StatelessRpc.Inbound(requestId, p.identity(), p.sourceIp(), p.userAgent(), correlationId(),
                route.revision(), p.version(), headers.getHeaderString(RequestHeaders.METHOD),
                headers.getHeaderString(RequestHeaders.NAME));
    }

    /**
     * Opens the session's server-to-client stream (SSE): notifications of changed resources and
     * lists, plus keep-alive comments. One stream per session: a new GET replaces the old stream
     * (on any replica). Same session rules as POST: missing id 400, unknown, ended, expired or another
     * subject's session 404.
     */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    public Multi<OutboundSseEvent> stream(@Context RoutingContext rc, @Context HttpHeaders headers,
            @Context HttpServerRequest request, @Context Sse sse) {
        String requestId = RequestIds.next();
        Identity identity = identities.of(security);
        String sourceIp = SourceAddress.of(request);
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);
        CompletionStage<Response> scope = scopes.refuse(identity, request, requestId, sourceIp, userAgent);
        if (scope != null) {
            throw refusal(rc, scope);
        }
        String sessionId = headers.getHeaderString(McpHeaders.SESSION);
        if (sessionId == null || sessionId.isBlank()) {
            throw new WebApplicationException(plain(400, "Missing Mcp-Session-Id header; call initialize first", requestId));
        }
        Instant expiry = tokenExpiry();
        Optional<SessionStore.Session> session;
        try {
            session = sessions.use(sessionId, identity.subject(), expiry);
        } catch (RuntimeException e) {
            LOG.errorf("session lookup failed for request %s: %s", requestId, e.toString());
            throw new WebApplicationException(plain(503, "Service unavailable", requestId));
        }
        if (session.isEmpty()) {
            throw new WebApplicationException(Response.status(404).header(McpHeaders.REQUEST_ID, requestId).build());
        }
        if (VersionHeader.of(headers.getHeaderString(McpHeaders.PROTOCOL_VERSION)).refusedOnSessions()) {
            throw new WebApplicationException(plain(400, "Unsupported MCP-Protocol-Version", requestId));
        }
        SessionStore.Session s = session.get();
        var ctx = new RequestContext(requestId, identity, sourceIp, userAgent, s.id(), null, s.clientInfo(),
                s.revision().pipeline());
        var holder = new StreamHolder(new Subscriber(identity, sourceIp), ctx.caller(), requestId, s.protocolVersion());
        try {
            return deadlines.watch(WriteDeadlines.Kind.EVENTS, request,
                    streams.open(sessionId, identity.subject(), holder, expiry, sse), McpEndpoint::eventBytes);
        } catch (SubjectCapReached e) {
            throw refusal(rc, caps.response(e.cap, ctx.caller(), "GET /mcp", e.detail()));
        } catch (RuntimeException e) {
            LOG.errorf("cannot open the stream for request %s: %s", requestId, e.toString());
            throw new WebApplicationException(plain(503, "Service unavailable", requestId));
        }
    }

    /** About how many bytes an event takes on the wire, for its write deadline. */
    private static long eventBytes(OutboundSseEvent e) {
        Object data = e.getData();
        return 32 + (data == null ? 0 : data.toString().length()) + (e.getComment() == null ? 0 : e.getComment().length());
    }

    /** Ends a 2025 session: its end is audited ({@code SESSION_CLOSE}) before anything is ended. */
    @DELETE
    @Blocking
    public CompletionStage<Response> end(@Context HttpHeaders headers, @Context HttpServerRequest request) {
        String requestId = RequestIds.next();
        Identity identity = identities.of(security);
        String sourceIp = SourceAddress.of(request);
        String userAgent = headers.getHeaderString(HttpHeaders.USER_AGENT);
        CompletionStage<Response> scope = scopes.refuse(identity, request, requestId, sourceIp, userAgent);
        if (scope != null) {
            return scope; // DELETE holds no admission place
        }
        return CompletableFuture.completedFuture(endSession(headers, identity, sourceIp, userAgent, requestId));
    }

    private Response endSession(HttpHeaders headers, Identity identity, String sourceIp, String userAgent, String requestId) {
        String sessionId = headers.getHeaderString(McpHeaders.SESSION);
        if (sessionId == null || sessionId.isBlank()) {
            return Response.status(400).header(McpHeaders.REQUEST_ID, requestId).build();
        }
        Optional<SessionStore.Session> session = sessions.find(sessionId, identity.subject());
        if (session.isEmpty()) {
            return Response.status(404).header(McpHeaders.REQUEST_ID, requestId).build();
        }
        SessionStore.Session s = session.get();
        var ctx = new RequestContext(requestId, identity, sourceIp, userAgent, s.id(), null, s.clientInfo(),
                s.revision().pipeline());
        try {
            sessionAudit.deleted(requestId, ctx.caller(), s.protocolVersion());
        } catch (AuditUnavailableException e) {
            return plain(503, "Service unavailable: the audit log cannot record this request", requestId);
        }
        if (!sessions.end(sessionId, identity.subject())) {
            return Response.status(404).header(McpHeaders.REQUEST_ID, requestId).build();
        }
        // The stream here ends now; a stream on another replica ends at that replica's next check.
        streams.close(sessionId);
        try {
            subscriptions.removeSession(sessionId);
        } catch (RuntimeException e) {
            // The session has ended, so its subscriptions can never be delivered; the sweep removes them.
            LOG.warnf("subscriptions of ended session could not be removed: %s", e.toString());
        }
        return Response.noContent().header(McpHeaders.REQUEST_ID, requestId).build();
    }

    /** The HTTP response for an answer: its body as JSON (or one SSE event), or its status alone. */
    private Response render(Answer a, boolean sse, HttpServerRequest request, String requestId) {
        if (a.body() instanceof Answer.Streamed s) {
            return streamed.build(s, sse, request, requestId, a.headers());
        }
        Response.ResponseBuilder b = a.body() == null ? Response.status(a.status()) : respond(a.status(), a.body(), sse);
        if (!a.headers().containsKey(McpHeaders.REQUEST_ID)) {
            b.header(McpHeaders.REQUEST_ID, requestId); // else the answer names the record it was counted in
        }
        a.headers().forEach(b::header);
        return b.build();
    }

    private Response.ResponseBuilder respond(int status, Object body, boolean sse) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        if (sse) {
            // One event carrying the response, then the stream ends: the simplest valid SSE answer.
            String event = "event: message\ndata: " + new String(bytes, StandardCharsets.UTF_8) + "\n\n";
            return Response.status(status).type("text/event-stream").header("Cache-Control", "no-cache").entity(event);
        }
        return Response.status(status).type("application/json").entity(bytes);
    }

    private static Response plain(int status, String message, String requestId) {
        return Response.status(status).type("text/plain").entity(message + "\n").header(McpHeaders.REQUEST_ID, requestId).build();
    }

    /** The verified token's expiry, if it has one. */
    private Instant tokenExpiry() {
        if (security.getPrincipal() instanceof JsonWebToken token && token.getExpirationTime() > 0) {
            return Instant.ofEpochSecond(token.getExpirationTime());
        }
        return null;
    }

    /** What follows one client without a session: the token's {@code sid}, else its {@code jti}. */
    private String correlationId() {
        if (!(security.getPrincipal() instanceof JsonWebToken token)) {
            return null;
        }
        Object sid = token.getClaim("sid");
        String value = sid != null ? String.valueOf(sid).replace("\"", "") : token.getTokenID();
        if (value == null || value.isBlank()) {
            return null;
        }
        String tagged = (sid != null ? "sid:" : "jti:") + value;
        return tagged.length() <= 128 ? tagged : tagged.substring(0, 128);
    }

    private static boolean acceptsJson(String accept) {
        if (accept == null || accept.isBlank()) {
            return true;
        }
        String a = accept.toLowerCase();
        return a.contains("application/json") || a.contains("*/*") || a.contains("application/*");
    }

    private static boolean acceptsOnlySse(String accept) {
        return accept != null && accept.toLowerCase().contains("text/event-stream") && !acceptsJson(accept);
    }
}
