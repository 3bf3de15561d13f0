package dev.quaestor.mcp.transport;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.refusals.RefusalRecorder;
import dev.quaestor.http.RouteRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.SubjectSlots;
import dev.quaestor.mcp.limits.TransportConfig;
import dev.quaestor.mcp.wire.McpHeaders;
import dev.quaestor.mcp.wire.TextResponse;
import dev.quaestor.pipeline.RequestContext;
import dev.quaestor.pipeline.ResourcePipeline;
import io.netty.handler.codec.DecoderException;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jboss.logging.Logger;

/**
 * An authenticated caller's body that broke off while it was read: its chunked framing broken (a chunk size that is
 * no number, a line past the decoder's bound), or its connection closed or reset part-way. The HTTP layer drops the
 * connection as soon as it has said so, so this refusal cannot wait for its record as the others at the door do: a
 * 400 in words goes out at once while the connection still carries it, under the request id its record is then given,
 * and the refusal is recorded as one {@code DECISION} {@code DENY}, outcome {@code unreadable}, what broke and the
 * bytes received in {@code detail} (never the bytes themselves), one rate-limit token spent. An empty bucket (or a
 * rate limiter that cannot be asked) changes nothing in the answer, which has gone: the record is still that refusal,
 * its detail saying it was not charged and why. Past the attempt limit, it is counted in a summary as every refusal is. Nothing was served, so an answer given before its record discloses
 * nothing.
 *
 * <p>Those records are written on workers, since charging the rate limit may wait (on Redis) and a record on its own
 * waits for its commit; the answer has gone and the connection with it, so nothing else bounds that hand-off. It
 * has the body readers' bounds: at most {@code quaestor.limits.per-subject.body-readers} of one caller's waiting
 * (never more than a quarter of {@code quaestor.http.max-body-readers}), and {@code max-body-readers} in all. Past
 * them a broken body is recorded at once on the I/O thread and not charged (its detail says why): on its own under the
 * attempt limit, counted into a summary past it, so a caller breaking bodies off faster than they can be recorded
 * fills no queue.
 */
@ApplicationScoped
class BrokenBodies {

    private static final Logger LOG = Logger.getLogger(BrokenBodies.class);

    static final String OUTCOME = "unreadable";
    static final String MESSAGE = "Bad Request: the request body's chunked framing is broken";

    private final ResourcePipeline pipeline;
    private final RefusalRecorder refusals;
    private final SubjectSlots waiting;
    private final AtomicInteger waitingAll = new AtomicInteger();
    private final int maxWaiting;

    BrokenBodies(ResourcePipeline pipeline, RefusalRecorder refusals, TransportConfig transport,
            SubjectLimitsConfig perSubject) {
        this.pipeline = pipeline;
        this.refusals = refusals;
        this.maxWaiting = transport.maxBodyReaders();
        this.waiting = new SubjectSlots(Math.min(perSubject.bodyReaders(), Math.max(1, maxWaiting / 4)));
        refusals.answersFirst(OUTCOME);
    }

    /** What broke, for the record: the framing, the connection or the stream (which no answer then reaches). */
    static String detail(Throwable cause, int received) {
        String what = cause instanceof DecoderException || cause instanceof NumberFormatException ? "chunked framing broken"
                : cause instanceof HttpClosedException || cause instanceof IOException ? "connection closed"
                : cause instanceof StreamResetException ? "stream reset by the client"
                : "body broken off (" + cause.getClass().getSimpleName() + ")";
        return what + " after " + received + " bytes received";
    }

    /** On the request's I/O thread, as the HTTP layer is about to drop the connection: answers now, records next. */
    void send(RoutingContext rc, Identity identity, String detail) {
        String requestId = RequestIds.next();
        RequestContext ctx = DoorContext.of(rc.request(), identity, requestId);
        new RouteRefusal(400).header("Content-Type", "text/plain").header(McpHeaders.REQUEST_ID, requestId)
                .send(rc, MESSAGE + "\n", true);
        // Vert.x holds writes made while it reads a packet until the read ends, and the close that follows this
        // handler would drop them: the refusal is flushed now (Vert.x's own connection class, the one Quarkus ships).
        if (rc.request().connection() instanceof ConnectionBase connection) {
            connection.flush();
        }
        String key = CapRefusals.key(identity, rc);
        if (!waiting.tryTake(key)) {
            countUncharged(ctx, detail, "at most " + waiting.cap() + " of this caller's");
        } else if (waitingAll.incrementAndGet() > maxWaiting) {
            waitingAll.decrementAndGet();
            waiting.release(key);
            countUncharged(ctx, detail, "at most " + maxWaiting);
        } else {
            rc.vertx().executeBlocking(() -> record(ctx, detail), false).onComplete(done -> {
                waitingAll.decrementAndGet();
                waiting.release(key);
            });
        }
    }

    /** Past the bounds of records waiting: recorded at once, on this thread, uncharged (merged past the attempt limit). */
    private void countUncharged(RequestContext ctx, String detail, String bound) {
        AuditEvent event = AuditEvent.of(AuditEvent.Kind.DECISION, ctx.requestId()).caller(ctx.caller())
                .decision("DENY").outcome(OUTCOME)
                .detail(detail + "; not charged: " + bound + " broken bodies were waiting to be recorded").build();
        try {
            refusals.record(event).committed().exceptionally(e -> {
                LOG.warnf("the refusal of request %s (a body that broke off) could not be recorded: %s", ctx.requestId(), e);
                return null;
            });
        } catch (AuditUnavailableException e) {
            LOG.warnf("the refusal of request %s (a body that broke off) could not be recorded: %s", ctx.requestId(), e);
        }
    }

    /** Over HTTP/2, on the worker that read the body: recorded, then answered (a stream reset by then never sees it). */
    Response refuse(HttpServerRequest request, Identity identity, String requestId, String detail) {
        record(DoorContext.of(request, identity, requestId), detail);
        return TextResponse.of(400, MESSAGE, requestId);
    }

    private Void record(RequestContext ctx, String detail) {
        try {
            RecordedRefusal record = pipeline.recordAnswered(ctx, OUTCOME, detail);
            record.committed().exceptionally(e -> {
                LOG.warnf("the refusal of request %s (a body that broke off) could not be recorded: %s", ctx.requestId(), e);
                return null;
            });
        } catch (RuntimeException e) {
            LOG.warnf("the refusal of request %s (a body that broke off) could not be recorded: %s", ctx.requestId(), e);
        }
        return null;
    }
}
