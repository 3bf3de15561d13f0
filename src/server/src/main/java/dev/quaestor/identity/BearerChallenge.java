package dev.quaestor.identity;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * The challenge MCP clients need on a 401 from /mcp: {@code WWW-Authenticate: Bearer
 * resource_metadata="..."} naming the RFC 9728 document, so a client can discover where to get a
 * token, plus {@code error="invalid_token"} when a token was presented and refused (RFC 6750).
 * quarkus-oidc still does every token check; this only rewrites the header on the way out,
 * whichever part of the security layer produced the 401. On /mcp and on every other door whose refusals are recorded
 * ({@link TokenDoors}) it adds the {@code X-Request-Id} of the refusal's audit record, which
 * {@link QuietAuthenticationFailures} committed before the 401 was sent. The 401 says nothing about why a token was
 * refused.
 */
@ApplicationScoped
public class BearerChallenge {

    /** {@code scope="…"} for the challenge: the scopes every call needs, if any are configured. */
    private final String scope;

    BearerChallenge(OAuthConfig oauth) {
        this.scope = oauth.requiredScopes().filter(s -> !s.isEmpty()).map(s -> ", scope=\"" + String.join(" ", s) + "\"")
                .orElse("");
    }

    /** Above authentication (200), so the hook is in place before a challenge can be sent. */
    private static final int PRIORITY = 900;

    void register(@Observes Filters filters) {
        filters.register(rc -> {
            String path = rc.request().path();
            if (TokenDoors.recorded(path)) {
                boolean mcp = TokenDoors.mcp(path);
                rc.addHeadersEndHandler(v -> {
                    if (mcp && rc.response().getStatusCode() == 401) {
                        String value = "Bearer resource_metadata=\"" + PublicUrl.of(rc.request())
                                + "/.well-known/oauth-protected-resource/mcp\"";
                        String auth = rc.request().getHeader("Authorization");
                        boolean presented = auth != null && !auth.isBlank();
                        if (presented) {
                            value += ", error=\"invalid_token\"";
                        }
                        value += scope;
                        rc.response().headers().set("WWW-Authenticate", value);
                    }
                    // The refusal's record (a 401, or a 503 while the identity provider is unavailable).
                    String requestId = rc.get(QuietAuthenticationFailures.REQUEST_ID);
                    if (requestId != null && !rc.response().headers().contains("X-Request-Id")) {
                        rc.response().headers().set("X-Request-Id", requestId);
                    }
                });
            }
            rc.next();
        }, PRIORITY);
    }
}
