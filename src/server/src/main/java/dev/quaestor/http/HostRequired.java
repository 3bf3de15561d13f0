package dev.quaestor.http;

import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * An HTTP/1.1 request without a {@code Host} the router can read (none, or one that is not a host and port, such as
 * {@code localhost:1@evil.example}) is failed by Vert.x's router with 400 before any filter runs. It is answered here,
 * in one line as a path not in normal form is ({@link PathForm}), and not logged: Quarkus's own failure handler would
 * log each at ERROR with an error id, one line per request from anyone, without a token.
 */
@ApplicationScoped
public class HostRequired {

    static final String REFUSAL = "Bad Request: the Host header is missing or is not a host name and port\n";

    void register(@Observes Router router) {
        // First of the failure handlers (Quarkus's is last); a failure of any other kind goes on to the next.
        router.route().order(Integer.MIN_VALUE).failureHandler(rc -> {
            var request = rc.request();
            // Only HTTP/1.1: Vert.x takes an HTTP/1.0 request without a Host, and a later 400 of one is another failure.
            if (rc.statusCode() == 400 && request.version() == HttpVersion.HTTP_1_1 && request.authority() == null
                    && !rc.response().headWritten()) {
                rc.response().setStatusCode(400).putHeader("Content-Type", "text/plain").end(REFUSAL);
            } else {
                rc.next();
            }
        });
    }
}
