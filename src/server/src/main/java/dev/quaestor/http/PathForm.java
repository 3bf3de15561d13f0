package dev.quaestor.http;

import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Only paths in normal form are served: a request whose path differs from the normalized form that routing, the path
 * permissions and the OIDC tenants see ({@link RoutingContext#normalizedPath()}: dot segments removed, empty segments
 * collapsed, percent-encoded unreserved characters decoded), or that holds a {@code ;}, is answered 400 before any
 * other filter runs. So every filter that tests a request's path ({@code /mcp}, {@code /console}, health) sees the
 * path the request is routed by: {@code /%63onsole/search} or {@code /./mcp} cannot reach a page or the endpoint
 * past the checks that guard it.
 */
@ApplicationScoped
public class PathForm {

    /** Above every other filter: the Host/Origin guard (1000) and Quarkus's own security handlers (CORS, 300). */
    static final int PRIORITY = 1100;

    static final String REFUSAL = "Bad Request: the path is not in normal form (no dot segments, empty segments,"
            + " percent-encoded letters, digits or -._~, or ';')\n";

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            if (normal(rc)) {
                rc.next();
            } else {
                rc.response().setStatusCode(400).putHeader("Content-Type", "text/plain").end(REFUSAL);
            }
        }, PRIORITY);
    }

    private static boolean normal(RoutingContext rc) {
        String path = rc.request().path();
        if (path == null) {
            return true; // refused by the router itself, before any filter
        }
        try {
            return path.indexOf(';') < 0 && path.equals(rc.normalizedPath());
        } catch (IllegalArgumentException e) {
            return false; // a '%' that does not begin an escape (which the router refuses first)
        }
    }
}
