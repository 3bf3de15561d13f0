package dev.quaestor.identity;

import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/** The server's public base URL: {@code quaestor.http.public-url}, else scheme and Host of the request. */
public final class PublicUrl {

    private PublicUrl() {
    }

    public static String of(HttpServerRequest request) {
        Optional<String> configured = ConfigProvider.getConfig().getOptionalValue("quaestor.http.public-url", String.class);
        if (configured.isPresent()) {
            String u = configured.get();
            return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
        }
        String host = host(request);
        return request.scheme() + "://" + (host == null ? "localhost" : host);
    }

    /**
     * The host (and port) the client addressed: the Host header in HTTP/1.1, the :authority
     * pseudo-header in HTTP/2, which has no Host header.
     */
    public static String host(HttpServerRequest request) {
        var authority = request.authority();
        if (authority != null) {
            return authority.port() > 0 ? authority.host() + ":" + authority.port() : authority.host();
        }
        return request.getHeader("Host");
    }
}
