package dev.quaestor.mcp.transport;

import dev.quaestor.identity.PublicUrl;
import dev.quaestor.mcp.limits.TransportConfig;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;

/**
 * DNS-rebinding protection: the Host header must name an allowed host on every path but health and metrics, and on
 * /mcp a present Origin header must be an allowed origin, else 403. It runs as an HTTP filter ahead of
 * authentication, so a rebinding page learns nothing, not even whether a token would be accepted, and nothing the
 * server builds from the Host (a redirect after sign-in, a URL in the metadata when no public URL is configured)
 * can name a host that is not the server's.
 *
 * <p>Health is exempt because the kubelet probes it by the pod's address, and metrics because Prometheus scrapes
 * them the same way; neither trusts the Host, and metrics need a bearer token, which a rebinding page cannot send.
 * The host of {@code quaestor.http.public-url} is always allowed.
 */
@ApplicationScoped
public class OriginGuard {

    /** Above the authentication filter (200) so it runs first. */
    private static final int PRIORITY = 1000;

    private final List<String> hosts;
    private final List<String> origins;

    OriginGuard(TransportConfig config) {
        var allowed = new java.util.ArrayList<String>();
        config.allowedHosts().forEach(h -> allowed.add(h.toLowerCase(Locale.ROOT)));
        config.publicUrl().map(OriginGuard::hostOf).filter(h -> h != null).ifPresent(h -> allowed.add(h.toLowerCase(Locale.ROOT)));
        this.hosts = List.copyOf(allowed);
        this.origins = config.allowedOrigins().stream().map(o -> o.toLowerCase(Locale.ROOT)).toList();
    }

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            HttpServerRequest req = rc.request();
            String path = req.path();
            boolean mcp = McpEndpoint.handles(path);
            if ((!exempt(path) && !hostAllowed(PublicUrl.host(req))) || (mcp && !originAllowed(req.getHeader("Origin")))) {
                rc.response().setStatusCode(403).putHeader("Content-Type", "text/plain")
                        .end("Forbidden: Host or Origin not allowed\n");
                return;
            }
            rc.next();
        }, PRIORITY);
    }

    /** The host of a URL, or null if it has none (a malformed public URL is refused at start-up, not here). */
    private static String hostOf(String url) {
        try {
            return java.net.URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Health (probed by pod address) and metrics (scraped by pod address, with a token). */
    static boolean exempt(String path) {
        return path != null && (path.equals("/q/health") || path.startsWith("/q/health/") || path.equals("/q/metrics")
                || path.startsWith("/q/metrics/"));
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
