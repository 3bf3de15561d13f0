package dev.quaestor.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * An HTTP/1 request framed by {@code Transfer-Encoding} is answered, then its connection is closed, and no later
 * request on that connection is handled. RFC 9112 (section 6.3) requires the close after a request that carried both
 * {@code Transfer-Encoding} and {@code Content-Length}, the shape of request smuggling, where a proxy in front that
 * goes by the length takes the rest of the body for a next request. The HTTP decoder reads such a request by its chunks
 * and drops the {@code Content-Length} before any filter sees it, so no filter can tell the two apart: every chunked
 * request closes its connection. A request the client had already written after it (pipelined in the same packet,
 * decoded before the close) reaches this filter once the first is answered, and is dropped with the connection,
 * unanswered and unrecorded, as if never read. Clients of this server send bodies of known length, which are not
 * affected.
 */
@ApplicationScoped
public class ChunkedFraming {

    /** First of all filters, above {@link PathForm}: the close is promised before anything can answer. */
    static final int PRIORITY = PathForm.PRIORITY + 100;

    /** Connections that carried a chunked request: nothing more of theirs is handled. Weak: gone with the connection. */
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
            if (chunked(rc)) {
                closing.add(connection);
                anyMarked = true;
                rc.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                // Closed once answered. Not on a failure: the connection is closed already, or the HTTP layer closes
                // it once the request's handlers have heard of it, and one of them may still answer (a broken chunk).
                rc.addEndHandler(done -> {
                    if (done.succeeded()) {
                        connection.close();
                    }
                });
            }
            rc.next();
        }, PRIORITY);
    }

    private static boolean chunked(RoutingContext rc) {
        HttpVersion version = rc.request().version();
        return (version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0)
                && rc.request().headers().contains(HttpHeaders.TRANSFER_ENCODING);
    }
}
