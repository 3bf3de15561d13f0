package dev.quaestor.identity;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The challenge MCP clients need on a 401 from /mcp: {@code WWW-Authenticate: Bearer
 * resource_metadata="..."} naming the RFC 9728 document, so a client can discover where to get a
 * token, plus {@code error="invalid_token"} when a token was presented and refused (RFC 6750).
 * quarkus-oidc still does every token check; this only rewrites the header on the way out,
 * whichever part of the security layer produced the 401.
 */
@ApplicationScoped
public class BearerChallenge {

    /** Above authentication (200), so the hook is in place before a challenge can be sent. */
    private static final int PRIORITY = 900;

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            String path = rc.request().path();
            if (path.equals("/mcp") || path.startsWith("/mcp/")) {
                rc.addHeadersEndHandler(v -> {
                    if (rc.response().getStatusCode() == 401) {
                        String value = "Bearer resource_metadata=\"" + PublicUrl.of(rc.request())
                                + "/.well-known/oauth-protected-resource/mcp\"";
                        String auth = rc.request().getHeader("Authorization");
                        if (auth != null && !auth.isBlank()) {
                            value += ", error=\"invalid_token\"";
                        }
                        rc.response().headers().set("WWW-Authenticate", value);
                    }
                });
            }
            rc.next();
        }, PRIORITY);
    }
}
