package dev.quaestor.mcp;

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
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads the whole body of an MCP POST, bounded in size and time; {@link McpEndpoint#post} takes it
 * from here rather than from a JAX-RS body parameter.
 *
 * <p>Why: a blocking JAX-RS method with a body parameter is dispatched to a worker first, which then
 * waits for the I/O thread to deliver the body, although a JSON-RPC message nearly always arrives
 * with its headers: one more pair of thread hand-overs on every request, which the load profile
 * showed (README "Performance"). So over HTTP/1.x this filter reads the body on the I/O thread,
 * after authentication (unauthenticated bodies are never read) and before the request is handed to
 * a worker. Over HTTP/2 JAX-RS must see the request before its end, so there the worker reads it
 * as before ({@link #body}).
 *
 * <p>The body limit ({@code quarkus.http.limits.max-body-size}) is enforced here too, since this runs
 * before Quarkus's own check: a declared length over it, or a chunked body that grows past it, gets
 * 413 (HTTP/1.x: and the connection is closed, its unread rest being unusable). A body that does not
 * finish arriving within {@code quaestor.http.body-timeout} gets 408.
 */
@ApplicationScoped
public class RequestBodyReader {

    /** After authentication (200) and authorization (100): unauthenticated bodies are never read. */
    private static final int PRIORITY = 50;
    static final String BODY = "quaestor.mcp.body";

    private final long limit;
    private final long timeoutMillis;

    RequestBodyReader(@ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K") MemorySize limit,
            TransportConfig config) {
        this.limit = limit.asLongValue();
        this.timeoutMillis = config.bodyTimeout().toMillis();
    }

    void register(@Observes Filters filters) {
        filters.register(this::filter, PRIORITY);
    }

    /** Why a body was not read: the HTTP status to answer with. */
    static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    /**
     * The body of this MCP POST. Read already by the filter (HTTP/1.x), or read now, waiting on this
     * worker (HTTP/2: there JAX-RS must see the request before its end, so the filter leaves it).
     * Throws {@link Refused} for a body over the limit or one that does not arrive in time.
     */
    byte[] body(RoutingContext rc) {
        Buffer read = rc.get(BODY);
        if (read != null) {
            return read.getBytes();
        }
        try {
            Buffer body = read(rc).toCompletionStage().toCompletableFuture()
                    .get(timeoutMillis + 1000, java.util.concurrent.TimeUnit.MILLISECONDS);
            // Kept, so that a second look at the request (the listen route handing it back) finds it.
            rc.put(BODY, body);
            return body.getBytes();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Refused r ? r : new Refused(400, "Request body could not be read\n");
        } catch (java.util.concurrent.TimeoutException e) {
            throw new Refused(408, "Request body not received in time\n");
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
        read(rc).onComplete(done -> {
            if (done.succeeded()) {
                rc.put(BODY, done.result());
                rc.next();
            } else if (done.cause() instanceof Refused r) {
                refuse(rc, r);
            } else {
                rc.fail(done.cause());
            }
        });
    }

    /** Reads the whole body, bounded in size and time; the handlers run on the request's I/O thread. */
    private Future<Buffer> read(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        long declared = declaredLength(req);
        if (declared > limit) {
            return Future.failedFuture(new Refused(413, "Request body too large\n"));
        }
        if (req.isEnded()) {
            return Future.succeededFuture(Buffer.buffer());
        }
        Promise<Buffer> result = Promise.promise();
        Buffer body = Buffer.buffer((int) Math.max(256, Math.min(declared, 64 * 1024)));
        long timer = rc.vertx().setTimer(timeoutMillis,
                t -> result.tryFail(new Refused(408, "Request body not received in time\n")));
        req.handler(chunk -> {
            if (result.future().isComplete()) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                rc.vertx().cancelTimer(timer);
                result.tryFail(new Refused(413, "Request body too large\n"));
                return;
            }
            body.appendBuffer(chunk);
        });
        req.exceptionHandler(e -> {
            rc.vertx().cancelTimer(timer);
            result.tryFail(e);
        });
        req.endHandler(v -> {
            rc.vertx().cancelTimer(timer);
            result.tryComplete(body);
        });
        req.resume();
        return result.future();
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
        if (rc.response().ended()) {
            return;
        }
        // The rest of the body is not read, so the connection cannot carry another request.
        rc.response().setStatusCode(r.status).putHeader("Content-Type", "text/plain").putHeader("Connection", "close")
                .end(r.getMessage()).onComplete(done -> rc.request().connection().close());
    }
}
