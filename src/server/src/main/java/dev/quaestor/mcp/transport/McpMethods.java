package dev.quaestor.mcp.transport;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The endpoint answers POST, GET and DELETE only; any other method on {@code /mcp} is answered 405 before any other
 * work. Without it a {@code HEAD} would be routed to the GET handler by the REST layer, past the admission filter
 * (which takes places for the three methods it knows), and look a session up in the database for free.
 */
@ApplicationScoped
public class McpMethods {

    /** Just below the path-form check (1100), above the Host/Origin guard (1000) and everything after it. */
    private static final int PRIORITY = 1050;

    static final String ALLOWED = "GET, POST, DELETE";

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            HttpMethod method = rc.request().method();
            if (McpEndpoint.handles(rc.request().path())
                    && method != HttpMethod.POST && method != HttpMethod.GET && method != HttpMethod.DELETE) {
                rc.response().setStatusCode(405).putHeader("Allow", ALLOWED).putHeader("Content-Type", "text/plain")
                        .end("Method Not Allowed: /mcp answers " + ALLOWED + "\n");
                return;
            }
            rc.next();
        }, PRIORITY);
    }
}
