package dev.quaestor.mcp.transport;

import dev.quaestor.http.RouteRefusal;
import dev.quaestor.identity.Identity;
import dev.quaestor.mcp.limits.BodyBudget;
import dev.quaestor.mcp.limits.Cap;
import dev.quaestor.mcp.limits.CapRefusals;
import dev.quaestor.mcp.limits.SubjectLimitsConfig;
import dev.quaestor.mcp.limits.SubjectSlots;
import dev.quaestor.mcp.limits.TransportConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads the whole body of an MCP POST, bounded in size, time, rate and readers; {@link McpEndpoint#post} takes it
 * from here rather than from a JAX-RS body parameter.
 *
 * <p>Why: a blocking JAX-RS method with a body parameter is dispatched to a worker first, which then
 * waits for the I/O thread to deliver the body, although a JSON-RPC message nearly always arrives
 * with its headers: one more pair of thread hand-overs on every request, which the load profile
 * showed (README "Performance"). So over HTTP/1.x this filter reads the body on the I/O thread,
 * after authentication (unauthenticated bodies are never read) and before the request takes a place
 * in flight ({@link AdmissionLimit}) or is handed to a worker. Over HTTP/2 JAX-RS must see the request
 * before its end, so there the worker reads it ({@link #body}), under the same bounds.
 *
 * <p>Bounds: the body limit ({@code quarkus.http.limits.max-body-size}) is enforced here too, since this runs
 * before Quarkus's own check: a declared length over it, or a chunked body that grows past it, gets
 * 413 (HTTP/1.x: and the connection is closed, its unread rest being unusable), recorded and paid for as any refusal
 * at the door ({@link OversizedBodies}). A body still arriving after 100 ms
 * holds one of {@code quaestor.http.max-body-readers} places and one of its subject's
 * {@code quaestor.limits.per-subject.body-readers}; past either, the request is refused at once. A body that does
 * not finish arriving within {@code quaestor.http.body-timeout}, or that falls below {@code body-min-rate} bytes a
 * second once {@code body-grace} has passed, gets 408 and its connection is closed. Those refusals are on record
 * ({@link CapRefusals}).
 */
@ApplicationScoped
public class RequestBodyReader {

    /** After authentication (200) and authorization (100): unauthenticated bodies are never read. */
    private static final int PRIORITY = 50;
    static final String BODY = "quaestor.mcp.body";
    /** How often a body still arriving is checked against the minimum rate. */
    private static final long RATE_CHECK_MILLIS = 250;
    /** How long a body may take before it holds a reader's place: one that came with its headers never does. */
    private static final long QUICK_MILLIS = 100;

    private final long limit;
    private final long timeoutMillis;
    private final long minRate;
    private final long graceMillis;
    private final int maxReaders;
    private final AtomicInteger readers = new AtomicInteger();
    private final SubjectSlots subjectReaders;
    private final CapRefusals refusals;
    private final OversizedBodies oversized;
    private final BrokenBodies broken;
    private final BodyBudget budget;

    RequestBodyReader(@ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize limit,
            TransportConfig config, SubjectLimitsConfig perSubject, CapRefusals refusals, OversizedBodies oversized,
            BrokenBodies broken, BodyBudget budget, MeterRegistry metrics) {
        this.limit = limit.asLongValue();
        this.timeoutMillis = config.bodyTimeout().toMillis();
        this.minRate = config.bodyMinRate();
        this.graceMillis = config.bodyGrace().toMillis();
        this.maxReaders = config.maxBodyReaders();
        this.subjectReaders = new SubjectSlots(Math.min(perSubject.bodyReaders(), Math.max(1, maxReaders / 4)));
        this.refusals = refusals;
        this.oversized = oversized;
        this.broken = broken;
        this.budget = budget;
        Gauge.builder("quaestor.http.body.readers", readers, AtomicInteger::get)
                .description("MCP request bodies being read now (at most quaestor.http.max-body-readers)").register(metrics);
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    /** Why a body was not read: the HTTP status to answer with, or the cap or deadline it met (then on record). */
    static final class Refused extends RuntimeException {
        final int status;
        final Cap cap;
        /** Over the size limit: what the record says ({@link OversizedBodies}); else null. */
        final String tooLarge;
        /** Broken off while read: what the record says ({@link BrokenBodies}); else null. */
        final String broken;

        Refused(int status, String message) {
            this(status, message, null, null, null);
        }

        Refused(Cap cap, String detail) {
            this(cap.status, detail, cap, null, null);
        }

        private Refused(int status, String message, Cap cap, String tooLarge, String broken) {
            super(message, null, false, false);
            this.status = status;
            this.cap = cap;
            this.tooLarge = tooLarge;
            this.broken = broken;
        }

        /** A body over the limit; {@code detail} says by how much (its size, never its bytes). */
        static Refused tooLarge(String detail) {
            return new Refused(413, OversizedBodies.MESSAGE + "\n", null, detail, null);
        }

        /** A body that broke off while read ({@code cause}: the framing or the connection), after {@code received} bytes. */
        static Refused broken(Throwable cause, int received) {
            return new Refused(400, BrokenBodies.MESSAGE + "\n", null, null, BrokenBodies.detail(cause, received));
        }
    }

    /**
     * The body of this MCP POST. Read already by the filter (HTTP/1.x), or read now, waiting on this
     * worker (HTTP/2: there JAX-RS must see the request before its end, so the filter leaves it).
     * Throws {@link Refused} for a body over the limit, one that does not arrive in time, or one past a readers bound.
     */
    byte[] body(RoutingContext rc, Identity identity) {
        Buffer read = rc.get(BODY);
        if (read != null) {
            return read.getBytes();
        }
        try {
            Buffer body = read(rc, identity).toCompletionStage().toCompletableFuture()
                    .get(timeoutMillis + 1000, java.util.concurrent.TimeUnit.MILLISECONDS);
            return body.getBytes();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Refused r ? r : Refused.broken(e.getCause(), 0);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new Refused(Cap.BODY_TIMEOUT, "no complete body within " + timeoutMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Refused(503, "Interrupted\n");
        }
    }

    private void filter(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        if (req.method() != HttpMethod.POST || !McpEndpoint.handles(req.path()) || req.version() == HttpVersion.HTTP_2) {
            rc.next();
            return;
        }
        Identity identity = refusals.identity(rc);
        read(rc, identity).onComplete(done -> {
            if (done.succeeded()) {
                rc.put(BODY, done.result());
                rc.next();
            } else if (done.cause() instanceof Refused r && r.cap != null) {
                // Past a readers bound the body is not read either: the connection cannot carry another request.
                refusals.send(rc, r.cap, CapRefusals.caller(identity, rc), r.getMessage(), true);
            } else if (done.cause() instanceof Refused r && r.tooLarge != null && identity != null) {
                rc.request().pause(); // the rest of a chunked body is not read while its refusal is recorded
                oversized.send(rc, identity, r.tooLarge);
            } else if (done.cause() instanceof Refused r && r.broken != null && identity != null) {
                // Called from the body's exception handler: the HTTP layer closes the connection right after it.
                broken.send(rc, identity, r.broken);
            } else if (done.cause() instanceof Refused r) {
                refuse(rc, r);
            } else {
                rc.fail(done.cause());
            }
        });
    }

    /** Reads the whole body, bounded in size, time, rate and readers; the handlers run on the request's I/O thread. */
    private Future<Buffer> read(RoutingContext rc, Identity identity) {
        HttpServerRequest req = rc.request();
        long declared = declaredLength(req);
        if (declared > limit) {
            return Future.failedFuture(Refused.tooLarge("declared " + declared + " bytes, over the limit of " + limit + " bytes"));
        }
        if (req.isEnded()) {
            return Future.succeededFuture(Buffer.buffer());
        }
        String key = CapRefusals.key(identity, rc);
        Promise<Buffer> result = Promise.promise();
        Buffer body = Buffer.buffer((int) Math.max(256, Math.min(declared, 64 * 1024)));
        var vertx = rc.vertx();
        long started = System.nanoTime();
        // A body that came with its headers is read at once: it is never counted, and sets no deadline or rate check,
        // which only a body still arriving at QUICK_MILLIS gets (each timer costs the I/O thread on every request).
        var holds = new AtomicBoolean();
        // The deadline and the rate check once set (-1 before): set by the timer above, cancelled at the end, which
        // over HTTP/2 may run on another thread.
        var watches = new AtomicLongArray(new long[] {-1, -1});
        long claim = vertx.setTimer(Math.min(QUICK_MILLIS, timeoutMillis), t -> {
            if (result.future().isComplete()) {
                return;
            }
            if (readers.incrementAndGet() > maxReaders) {
                readers.decrementAndGet();
                result.tryFail(new Refused(Cap.ALL_BODY_READERS, maxReaders + " bodies being read"));
                return;
            } else if (!subjectReaders.tryTake(key)) {
                readers.decrementAndGet();
                result.tryFail(new Refused(Cap.BODY_READERS, subjectReaders.cap() + " bodies of this caller being read"));
                return;
            }
            holds.set(true);
            if (result.future().isComplete()) {
                release(key, holds); // completed meanwhile (HTTP/2: the worker reads, the I/O thread delivers)
                return;
            }
            long elapsed = (System.nanoTime() - started) / 1_000_000;
            watches.set(0, vertx.setTimer(Math.max(1, timeoutMillis - elapsed), d -> result.tryFail(
                    new Refused(Cap.BODY_TIMEOUT, "no complete body within " + timeoutMillis + " ms: "
                            + received(body, declared)))));
            if (minRate > 0) {
                long first = Math.max(1, graceMillis + RATE_CHECK_MILLIS - elapsed);
                watches.set(1, vertx.setPeriodic(first, RATE_CHECK_MILLIS, r -> {
                    long past = (System.nanoTime() - started) / 1_000_000 - graceMillis;
                    if (past > 0 && body.length() < minRate * past / 1000) {
                        result.tryFail(new Refused(Cap.BODY_TOO_SLOW, "below " + minRate + " bytes/s after "
                                + (past + graceMillis) + " ms: " + received(body, declared)));
                    }
                }));
            }
            if (result.future().isComplete()) {
                cancel(vertx, watches); // completed while they were being set
            }
        });
        // Bytes read of a body that is then refused were spent all the same: the subject's body budget pays for them
        // (a body read whole pays in PostIntake), and while it owes, a body past the free size is not read on.
        long[] received = {0};
        result.future().onComplete(done -> {
            vertx.cancelTimer(claim);
            cancel(vertx, watches);
            release(key, holds);
            if (done.failed()) {
                budget.spent(key, received[0]);
            }
        });
        req.handler(chunk -> {
            if (result.future().isComplete()) {
                return;
            }
            long before = received[0];
            received[0] += chunk.length();
            if (before <= budget.free() && received[0] > budget.free() && budget.owes(key)) {
                result.tryFail(new Refused(Cap.BODY_BYTES, budget.detail(declared >= 0 ? declared : received[0])
                        + "; this caller owes for bodies read and refused"));
                return;
            }
            if (body.length() + chunk.length() > limit) {
                result.tryFail(Refused.tooLarge("grew past the limit of " + limit + " bytes while read: "
                        + (body.length() + chunk.length()) + " bytes received"));
                return;
            }
            body.appendBuffer(chunk);
        });
        // A broken chunk, or the connection lost part-way: the promise completes at once (it has no context), so the
        // refusal is written before the HTTP layer, which called this, drops the connection.
        req.exceptionHandler(e -> result.tryFail(e instanceof Refused ? e : Refused.broken(e, body.length())));
        req.endHandler(v -> result.tryComplete(body));
        req.resume();
        return result.future();
    }

    private static void cancel(io.vertx.core.Vertx vertx, AtomicLongArray watches) {
        for (int i = 0; i < watches.length(); i++) {
            long watch = watches.getAndSet(i, -1);
            if (watch >= 0) {
                vertx.cancelTimer(watch);
            }
        }
    }

    /** Gives back the reader's places a body holds, once. */
    private void release(String key, AtomicBoolean holds) {
        if (holds.compareAndSet(true, false)) {
            readers.decrementAndGet();
            subjectReaders.release(key);
        }
    }

    private static String received(Buffer body, long declared) {
        return body.length() + (declared >= 0 ? " of " + declared : "") + " bytes received";
    }

    private static long declaredLength(HttpServerRequest req) {
        String length = req.getHeader("Content-Length");
        if (length == null) {
            return -1;
        }
        try {
            return Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static void refuse(RoutingContext rc, Refused r) {
        // The rest of the body is not read, so the connection cannot carry another request.
        new RouteRefusal(r.status).header("Content-Type", "text/plain").send(rc, r.getMessage(), true);
    }
}
