package dev.quaestor.mcp;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Reads the whole body of an MCP POST on the I/O thread, after authentication and before the request
 * is handed to a worker ({@link McpEndpoint#post} takes it from here, not from a body parameter).
 *
 * <p>Why: a blocking JAX-RS method with a body parameter is dispatched to a worker first, which then
 * waits for the I/O thread to deliver the body, although a JSON-RPC message nearly always arrives
 * with its headers. That wait is one more pair of thread hand-overs on every request, and the load
 * profile showed it (README "Performance"). Read here, the body costs no thread while it arrives.
 *
 * <p>The body limit ({@code quarkus.http.limits.max-body-size}) is enforced here as well, since this
 * runs before Quarkus's own check: a declared length over it, or a chunked body that grows past it,
 * gets 413 and the connection is closed. A body that does not finish arriving within
 * {@code quaestor.http.body-timeout} gets 408.
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

    /** The body read for this request, or null if none was (not an MCP POST). */
    static byte[] of(RoutingContext rc) {
        Buffer b = rc.get(BODY);
        return b == null ? null : b.getBytes();
    }

    private void filter(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        if (req.method() != HttpMethod.POST || !McpEndpoint.handles(req.path())) {
            rc.next();
            return;
        }
        long declared = declaredLength(req);
        if (declared > limit) {
            refuse(rc, 413, "Request body too large\n");
            return;
        }
        if (req.isEnded()) {
            rc.put(BODY, Buffer.buffer());
            rc.next();
            return;
        }
        Buffer body = Buffer.buffer((int) Math.max(256, Math.min(declared, 64 * 1024)));
        var state = new Object() {
            boolean over;
        };
        long timer = rc.vertx().setTimer(timeoutMillis, t -> {
            if (!rc.response().ended()) {
                state.over = true;
                refuse(rc, 408, "Request body not received in time\n");
            }
        });
        req.handler(chunk -> {
            if (state.over) {
                return;
            }
            if (body.length() + chunk.length() > limit) {
                state.over = true;
                rc.vertx().cancelTimer(timer);
                refuse(rc, 413, "Request body too large\n");
                return;
            }
            body.appendBuffer(chunk);
        });
        req.exceptionHandler(e -> {
            state.over = true;
            rc.vertx().cancelTimer(timer);
        });
        req.endHandler(v -> {
            rc.vertx().cancelTimer(timer);
            if (!state.over) {
                rc.put(BODY, body);
                rc.next();
            }
        });
        req.resume();
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

    private static void refuse(RoutingContext rc, int status, String message) {
        if (rc.response().ended()) {
            return;
        }
        // The rest of the body is not read, so the connection cannot carry another request.
        rc.response().setStatusCode(status).putHeader("Content-Type", "text/plain").putHeader("Connection", "close")
                .end(message).onComplete(done -> {
                    if (rc.request().version() != io.vertx.core.http.HttpVersion.HTTP_2) {
                        rc.request().connection().close();
                    }
                });
    }
}
