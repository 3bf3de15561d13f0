package dev.quaestor.mcp.transport;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.http.RouteRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.wire.Answer;
import dev.quaestor.mcp.wire.ErrorCodes;
import dev.quaestor.mcp.wire.Generation;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.mcp.wire.VersionHeader;
import dev.quaestor.mcp.wire.WireErrors;
import dev.quaestor.pipeline.Refusal;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * An authenticated caller's body over {@code quarkus.http.limits.max-body-size} (declared, or grown past it while
 * read): refused at the door as any request that cannot be read is ({@link ResourcePipeline#rejectMalformed}), so it
 * spends a rate-limit token, leaves one {@code DECISION} {@code DENY} with outcome {@code too-large} (past the
 * attempt limit, counted in a summary), and is answered only once that record has committed, with its request id.
 * The answer is the 413 it always was; once the caller's bucket is empty, the rate limit's 429 / -32004 instead.
 */
@ApplicationScoped
class OversizedBodies {

    static final String OUTCOME = "too-large";
    static final String MESSAGE = "Request body too large";
    /** The body of the 413's {@link Answer}: sent as the plain text {@link #MESSAGE}, as it always was. */
    static final Object TEXT = new Object();

    private final ResourcePipeline pipeline;
    private final ObjectMapper json;

    OversizedBodies(ResourcePipeline pipeline, ObjectMapper json) {
        this.pipeline = pipeline;
        this.json = json;
    }

    /**
     * Records and charges the refusal, on this (worker) thread: its answer, complete once its record has committed.
     * The 413's body is {@link #TEXT}; a rate-limit or audit refusal is a JSON-RPC error in the shape of the
     * generation the request's {@code MCP-Protocol-Version} header names.
     */
    CompletionStage<Answer> refuse(HttpServerRequest request, Identity identity, String requestId, String detail) {
        RequestContext ctx = DoorContext.of(request, identity, requestId);
        Generation generation = VersionHeader.of(request.getHeader(McpHeaders.PROTOCOL_VERSION)).generation();
        RecordedRefusal record;
        try {
            record = pipeline.rejectMalformed(ctx, null, null, OUTCOME, null, detail);
        } catch (Refusal r) {
            return WireErrors.refusal(generation, NullNode.instance, r, ctx.codes(), requestId).settled();
        }
        Answer tooLarge = new Answer(TEXT, 413, Map.of(McpHeaders.REQUEST_ID, record.requestId()));
        if (!record.merged()) {
            return CompletableFuture.completedFuture(tooLarge);
        }
        return WireErrors.afterCommit(generation, record, tooLarge, NullNode.instance, requestId).settled();
    }

    /**
     * From an HTTP filter, on the request's I/O thread: records and charges the refusal on a worker, then answers it
     * there once its record has committed and closes the connection (the body's unread rest makes it unusable).
     */
    void send(RoutingContext rc, Identity identity, String detail) {
        String requestId = RequestIds.next();
        Context here = Vertx.currentContext();
        rc.vertx().executeBlocking(() -> refuse(rc.request(), identity, requestId, detail), false)
                .toCompletionStage().thenCompose(answer -> answer)
                .whenComplete((answer, e) -> {
                    Runnable write = () -> write(rc, answer == null ? failed(requestId) : answer, requestId);
                    if (here == null) {
                        write.run();
                    } else {
                        here.runOnContext(x -> write.run());
                    }
                });
    }

    /** The same answer as a JAX-RS response (over HTTP/2, where the worker reads the body). */
    Response response(Answer a, String requestId, AnswerResponses answers, RoutingContext rc) {
        if (a.body() == TEXT) {
            return TextResponse.of(a.status(), MESSAGE, a.headers().getOrDefault(McpHeaders.REQUEST_ID, requestId));
        }
        return answers.render(a, false, rc, requestId);
    }

    /** Nothing could be recorded or answered in the worker (it failed unexpectedly): fail closed. */
    private static Answer failed(String requestId) {
        return WireErrors.error(Generation.SESSION, NullNode.instance, ErrorCodes.UNAVAILABLE,
                "Service unavailable: the audit log cannot record this request", Map.of(), requestId, 503,
                Map.of("Retry-After", "5"));
    }

    private void write(RoutingContext rc, Answer a, String requestId) {
        var refusal = new RouteRefusal(a.status());
        a.headers().forEach(refusal::header);
        if (!a.headers().containsKey(McpHeaders.REQUEST_ID)) {
            refusal.header(McpHeaders.REQUEST_ID, requestId);
        }
        String body;
        if (a.body() == TEXT) {
            refusal.header("Content-Type", "text/plain");
            body = MESSAGE + "\n";
        } else {
            refusal.header("Content-Type", "application/json");
            try {
                body = json.writeValueAsString(a.body());
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        refusal.send(rc, body, true);
    }
}
