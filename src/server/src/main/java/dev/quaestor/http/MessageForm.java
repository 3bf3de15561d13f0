package dev.quaestor.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Only messages of the HTTP versions served, with one Host at most, go further; checked first of all filters, on
 * every path. A request line naming another version ({@code HTTP/1.2}, {@code HTTP/9.9}) is read by Vert.x as no
 * version, and the rest of the stack would serve it, or fail on it with an error logged per request: 505. A request
 * with two {@code Host} headers would be judged by the first and might be routed by a proxy on the second: 400, as
 * RFC 9112 (section 3.2) requires; so is one with two {@code Authorization} headers, whose first the token check would
 * take while a gateway in front may have judged the other. A {@code Transfer-Encoding} other than {@code chunked} alone ({@code gzip, chunked},
 * {@code identity}, {@code chunked} twice) names a coding the body is not decoded from: 501, as RFC 9112 (section 6.1)
 * advises, before the body is read (the HTTP decoder would read it by its chunks and pass the gzip on as if it were the
 * body). Each closes the connection.
 */
@ApplicationScoped
public class MessageForm {

    /** Above {@link PathForm}, so that a path is judged only in a message that is one. */
    static final int PRIORITY = PathForm.PRIORITY + 50;

    static final String VERSION_REFUSAL = "HTTP Version Not Supported: HTTP/1.1 or HTTP/1.0 (or HTTP/2)\n";
    static final String HOSTS_REFUSAL = "Bad Request: more than one Host header\n";
    static final String AUTHORIZATIONS_REFUSAL = "Bad Request: more than one Authorization header\n";
    static final String CODING_REFUSAL = "Not Implemented: a transfer coding other than chunked\n";

    private final ClosingConnections closing;

    MessageForm(ClosingConnections closing) {
        this.closing = closing;
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            var request = rc.request();
            if (request.version() == null) {
                refuse(rc, 505, VERSION_REFUSAL);
            } else if (request.headers().getAll("Host").size() > 1) {
                refuse(rc, 400, HOSTS_REFUSAL);
            } else if (request.headers().getAll("Authorization").size() > 1) {
                refuse(rc, 400, AUTHORIZATIONS_REFUSAL);
            } else if (!codingsServed(request.headers().getAll("Transfer-Encoding"))) {
                refuse(rc, 501, CODING_REFUSAL);
            } else {
                rc.next();
            }
        }, PRIORITY);
    }

    /** Answers and closes: nothing the client sent behind this message on its connection is served. */
    private void refuse(io.vertx.ext.web.RoutingContext rc, int status, String text) {
        closing.last(rc);
        rc.response().setStatusCode(status).putHeader("Content-Type", "text/plain").end(text);
    }

    /** No {@code Transfer-Encoding}, or {@code chunked} alone, in any letter case. */
    private static boolean codingsServed(java.util.List<String> codings) {
        return codings.isEmpty() || codings.size() == 1 && codings.get(0).strip().equalsIgnoreCase("chunked");
    }
}
