package dev.quaestor.identity;

import io.vertx.core.http.HttpServerRequest;
import java.util.Optional;
import org.eclipse.microprofile.config.ConfigProvider;

/** The server's public base URL: {@code quaestor.http.public-url}, else scheme and Host of the request. */
final class PublicUrl {

    private PublicUrl() {
    }

    static String of(HttpServerRequest request) {
        Optional<String> configured = ConfigProvider.getConfig().getOptionalValue("quaestor.http.public-url", String.class);
        if (configured.isPresent()) {
            String u = configured.get();
            return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
        }
        String host = request.getHeader("Host");
        return request.scheme() + "://" + (host == null ? "localhost" : host);
    }
}
