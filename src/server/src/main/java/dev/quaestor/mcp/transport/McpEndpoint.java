package dev.quaestor.mcp.transport;

import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.WriteDeadlines;
import dev.quaestor.mcp.session.EventStreamRequests;
import dev.quaestor.mcp.session.SessionEnds;
import dev.quaestor.mcp.session.SessionRpc;
import dev.quaestor.mcp.stateless.Listen;
import dev.quaestor.mcp.stateless.ListenRequests;
import dev.quaestor.mcp.stateless.StatelessRpc;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.McpHeaders;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jboss.resteasy.reactive.ResponseHeader;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * The MCP Streamable HTTP endpoint, for both protocol generations on one URL. Origin/Host checks and authentication
 * have run before any method here; each method first refuses a token without the required scopes
 * ({@link RequiredScopes}).
 *
 * <p>A POST is read and parsed once ({@link PostIntake}), then routed by what it carries ({@link GenerationRouter}): a
 * 2026-07-28 request (its {@code _meta} claims the version) is served statelessly by {@link StatelessRpc}, or, for
 * {@code subscriptions/listen}, as an SSE stream by {@link #listen} and {@link ListenRequests}; anything else is a 2025
 * request on a session ({@link SessionRpc}). Answers are JSON, or a one-event SSE stream when the client accepts only
 * that. GET opens a 2025 session's server-to-client stream of notifications ({@link EventStreamRequests}), DELETE ends
 * a 2025 session ({@link SessionEnds}). Each of the three holds a place of the admission limit ({@link AdmissionLimit})
 * while it works, taken before anything is looked up; a stream gives its place back once it is open.
 *
 * <p>A refusal counted in a summary of refusals still to commit (past the caller's attempt limit) is answered only
 * once that summary has committed, within the merge window. Meanwhile the request holds no worker thread and no place
 * of the admission limit: its answer is completed asynchronously ({@link #later}).
 */
@Path("/mcp")
public class McpEndpoint {

    @Inject
    PostIntake intake;
    @Inject
    Inbounds inbounds;
    @Inject
    AnswerResponses answers;
    @Inject
    RequiredScopes scopes;
    @Inject
    GenerationDispatch generations;
    @Inject
    ListenRequests listens;
    @Inject
    EventStreamRequests eventStreams;
    @Inject
    SessionEnds sessionEnds;
    @Inject
    AdmissionLimit admission;
    @Inject
    WriteDeadlines deadlines;

    /** Whether a request path is this endpoint's (the HTTP filters in front of it ask). */
    static boolean handles(String path) {
        return path != null && (path.equals("/mcp") || path.startsWith("/mcp/"));
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
        PostIntake.Intake read = intake.read(rc, headers, request, requestId);
        if (read instanceof PostIntake.Refused refused) {
            return later(rc, refused.response());
        }
        if (read instanceof PostIntake.Unparsed u) {
            return later(rc, unparsed(headers, rc, requestId, u));
        }
        var p = (PostIntake.Parsed) read;
        return answer(rc, headers, request, requestId, p, GenerationRouter.route(p.root(), p.version()), lost);
    }

    private CompletionStage<Response> unparsed(HttpHeaders headers, RoutingContext rc, String requestId,
            PostIntake.Unparsed u) {
        return generations.unparsed(headers, u, requestId).settled().thenApply(a -> answers.render(a, u.sse(), rc, requestId));
    }

    /** A parsed POST's answer, from the generation its route names. */
    private CompletionStage<Response> answer(RoutingContext rc, HttpHeaders headers, HttpServerRequest request,
            String requestId, PostIntake.Parsed p, GenerationRouter.Route route, CompletableFuture<String> lost) {
        Answer answer = generations.answer(headers, p, route, requestId);
        if (answer.undelivered() != null) {
            // Its records say what was served: if it never reaches the client, they say that too.
            lost.thenAccept(why -> {
                if (why != null) {
                    answer.undelivered().record(why);
                }
            });
        }
        if (answer.later() == null) {
            return CompletableFuture.completedFuture(answers.render(answer, p.sse(), rc, requestId));
        }
        return later(rc, answer.later().thenApply(a -> answers.render(a, p.sse(), rc, requestId)));
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
     * {@code subscriptions/listen}; one whose body is not such a request is answered as any other POST, from the same
     * parse and under the same request id. Refusals are ordinary JSON answers, before any stream opens.
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
        CompletableFuture<String> lost = lostBecause(rc);
        PostIntake.Intake read = intake.read(rc, headers, request, requestId);
        if (read instanceof PostIntake.Unparsed u) {
            throw refusal(rc, unparsed(headers, rc, requestId, u));
        }
        if (!(read instanceof PostIntake.Parsed p)) {
            throw refusal(rc, ((PostIntake.Refused) read).response());
        }
        GenerationRouter.Route route = GenerationRouter.route(p.root(), p.version());
        if (route.generation() != Generation.STATELESS || !"subscriptions/listen".equals(p.root().path("method").asText(null))) {
            throw refusal(rc, answer(rc, headers, request, requestId, p, route, lost));
        }
        Listen listen = listens.open(p.root(), inbounds.stateless(headers, p, route.revision(), requestId), inbounds.tokenExpiry(), sse);
        if (listen instanceof Listen.Refused refused) {
            throw refusal(rc, refused.answer().settled().thenApply(a -> answers.render(a, false, rc, requestId)));
        }
        // The request itself is done; its stream must not hold one of the replica's in-flight places.
        admission.release(rc);
        // Set on the HTTP response directly: a streamed answer has no Response of its own to carry it.
        request.response().putHeader(McpHeaders.REQUEST_ID, requestId);
        Multi<OutboundSseEvent> events = ((Listen.Opened) listen).events();
        return deadlines.watch(WriteDeadlines.Kind.EVENTS, request, events, McpEndpoint::eventBytes);
    }

    /** Opens a 2025 session's server-to-client stream (SSE) ({@link EventStreamRequests}). */
    @GET
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @ResponseHeader(name = "Cache-Control", value = "no-cache")
    @ResponseHeader(name = "X-Accel-Buffering", value = "no")
    @Blocking
    public Multi<OutboundSseEvent> stream(@Context RoutingContext rc, @Context HttpHeaders headers,
            @Context HttpServerRequest request, @Context Sse sse) {
        String requestId = RequestIds.next();
        SessionRpc.Inbound in = inbounds.session(headers, request, requestId);
        CompletionStage<Response> scope = scopes.refuse(in.identity(), request, requestId, in.sourceIp(), in.userAgent());
        if (scope != null) {
            throw refusal(rc, scope);
        }
        EventStreamRequests.Opening opening = eventStreams.open(in, sse);
        if (opening instanceof EventStreamRequests.Refused refused) {
            throw refusal(rc, refused.response());
        }
        // As a listen: no in-flight place for the stream (streams have their own cap); its notifications' request named.
        admission.release(rc);
        request.response().putHeader(McpHeaders.REQUEST_ID, requestId);
        Multi<OutboundSseEvent> events = ((EventStreamRequests.Opened) opening).events();
        return deadlines.watch(WriteDeadlines.Kind.EVENTS, request, events, McpEndpoint::eventBytes);
    }

    /** About how many bytes an event takes on the wire, for its write deadline. */
    private static long eventBytes(OutboundSseEvent e) {
        Object data = e.getData();
        return 32 + (data == null ? 0 : data.toString().length()) + (e.getComment() == null ? 0 : e.getComment().length());
    }

    /** Ends a 2025 session ({@link SessionEnds}). */
    @DELETE
    @Blocking
    public CompletionStage<Response> end(@Context RoutingContext rc, @Context HttpHeaders headers,
            @Context HttpServerRequest request) {
        String requestId = RequestIds.next();
        SessionRpc.Inbound in = inbounds.session(headers, request, requestId);
        CompletionStage<Response> scope = scopes.refuse(in.identity(), request, requestId, in.sourceIp(), in.userAgent());
        return scope != null ? later(rc, scope) : CompletableFuture.completedFuture(sessionEnds.end(in));
    }
}
