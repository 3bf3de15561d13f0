package dev.quaestor.mcp;

import dev.quaestor.identity.PublicUrl;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;

/**
 * DNS-rebinding protection for /mcp: the Host header must name an allowed host and a present
 * Origin header must be an allowed origin, else 403. It runs as an HTTP filter ahead of
 * authentication, so a rebinding page learns nothing, not even whether a token would be accepted.
 */
@ApplicationScoped
public class OriginGuard {

    /** Above the authentication filter (200) so it runs first. */
    private static final int PRIORITY = 1000;

    private final List<String> hosts;
    private final List<String> origins;

    OriginGuard(TransportConfig config) {
        this.hosts = config.allowedHosts().stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
        this.origins = config.allowedOrigins().stream().map(o -> o.toLowerCase(Locale.ROOT)).toList();
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            HttpServerRequest req = rc.request();
            if (McpEndpoint.handles(req.path())) {
                if (!hostAllowed(PublicUrl.host(req)) || !originAllowed(req.getHeader("Origin"))) {
                    rc.response().setStatusCode(403).putHeader("Content-Type", "text/plain")
                            .end("Forbidden: Host or Origin not allowed\n");
                    return;
                }
            }
            rc.next();
        }, PRIORITY);
    }

    boolean hostAllowed(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = host.toLowerCase(Locale.ROOT);
        String name;
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            if (end < 0) {
                return false;
            }
            name = h.substring(0, end + 1);
        } else {
            int colon = h.indexOf(':');
            name = colon < 0 ? h : h.substring(0, colon);
        }
        return hosts.contains(name);
    }

    boolean originAllowed(String origin) {
        if (origin == null) {
            return true;
        }
        String o = origin.toLowerCase(Locale.ROOT);
        for (String allowed : origins) {
            if (allowed.endsWith(":*")) {
                String base = allowed.substring(0, allowed.length() - 2);
                if (o.equals(base) || (o.startsWith(base + ":") && o.substring(base.length() + 1).matches("\\d{1,5}"))) {
                    return true;
                }
            } else if (o.equals(allowed)) {
                return true;
            }
        }
        return false;
    }
}
