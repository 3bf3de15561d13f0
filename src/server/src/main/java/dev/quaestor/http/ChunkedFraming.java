package dev.quaestor.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * An HTTP/1 request framed by {@code Transfer-Encoding} is answered, then its connection is closed, and no later
 * request on that connection is handled. RFC 9112 (section 6.3) requires the close after a request that carried both
 * {@code Transfer-Encoding} and {@code Content-Length}, the shape of request smuggling, where a proxy in front that
 * goes by the length takes the rest of the body for a next request. The HTTP decoder reads such a request by its chunks
 * and drops the {@code Content-Length} before any filter sees it, so no filter can tell the two apart: every chunked
 * request closes its connection ({@link ClosingConnections}), and what the client sent behind it is not served.
 * Clients of this server send bodies of known length, which are not affected.
 */
@ApplicationScoped
public class ChunkedFraming {

    /** Just below {@link ClosingConnections}, above {@link PathForm}: the close is promised before anything can answer. */
    static final int PRIORITY = PathForm.PRIORITY + 100;

    private final ClosingConnections closing;

    ChunkedFraming(ClosingConnections closing) {
        this.closing = closing;
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            if (chunked(rc)) {
                closing.last(rc);
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
