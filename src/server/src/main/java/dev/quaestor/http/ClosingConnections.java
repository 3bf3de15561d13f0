package dev.quaestor.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Connections whose current request is the last they serve: answered with {@code Connection: close}, then closed.
 * Saying the close does not make it: a request the client had already written behind the last one (pipelined in the
 * same packet, decoded before the close) would be served. So a request on a marked connection is dropped here, first
 * of all filters, unanswered and unrecorded, as if never read.
 */
@ApplicationScoped
public class ClosingConnections {

    /** How long the rest of a body the client is still sending is read and dropped before the close. */
    static final long LINGER_MILLIS = 2_000;

    /** First of all filters. */
    static final int PRIORITY = PathForm.PRIORITY + 200;

    /** Marked connections. Weak: gone with the connection. */
    private final Set<HttpConnection> closing = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    /** Whether any connection was ever marked: until then a request takes no lock here. */
    private volatile boolean anyMarked;

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            HttpConnection connection = rc.request().connection();
            if (anyMarked && closing.contains(connection)) {
                connection.close();
                return;
            }
            rc.next();
        }, PRIORITY);
    }

    /**
     * Makes this request its connection's last: says {@code Connection: close} and serves nothing more on it. Closes it
     * once the answer is sent whole; not on a failure, when the connection is closed already, or the HTTP layer closes
     * it once the request's handlers have heard of it (and one of them may still answer). Over HTTP/2 each request is
     * framed on its own stream and the connection carries others: nothing is done.
     */
    void last(RoutingContext rc) {
        if (rc.request().version() == HttpVersion.HTTP_2) {
            return;
        }
        HttpConnection connection = rc.request().connection();
        closing.add(connection);
        anyMarked = true;
        rc.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        rc.addEndHandler(done -> {
            if (done.succeeded()) {
                closeAfterBody(rc.vertx(), rc.request(), connection);
            }
        });
    }

    /**
     * Closes the connection, once the client has sent the rest of its request's body if it is still sending: a close
     * while it sends resets the connection, and a client that had not yet read its answer loses it (RFC 9112, section
     * 9.6). The rest is dropped unread, for {@link #LINGER_MILLIS} at most.
     */
    private static void closeAfterBody(Vertx vertx, HttpServerRequest request, HttpConnection connection) {
        if (request.isEnded()) {
            connection.close();
            return;
        }
        try {
            long timer = vertx.setTimer(LINGER_MILLIS, t -> connection.close());
            request.handler(dropped -> { }).endHandler(end -> {
                vertx.cancelTimer(timer);
                connection.close();
            }).exceptionHandler(e -> connection.close());
            request.resume();
        } catch (IllegalStateException e) { // its body was taken by a reader that has not given it back
            connection.close();
        }
    }
}
