package dev.quaestor.identity;

import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.Caller;
import dev.quaestor.audit.RequestIds;
import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.List;

/**
 * The challenge MCP clients need on a 401 from /mcp: {@code WWW-Authenticate: Bearer
 * resource_metadata="..."} naming the RFC 9728 document, so a client can discover where to get a
 * token, plus {@code error="invalid_token"} when a token was presented and refused (RFC 6750).
 * quarkus-oidc still does every token check; this only rewrites the header on the way out,
 * whichever part of the security layer produced the 401. Every refusal is audited (source
 * address, user agent, whether a token was missing or refused; never the token itself).
 * The 401 says nothing about why a token was refused: see {@link QuietAuthenticationFailures}.
 */
@ApplicationScoped
public class BearerChallenge {

    private final AuditLog audit;
    /** {@code scope="…"} for the challenge: the scopes every call needs, if any are configured. */
    private final String scope;

    BearerChallenge(AuditLog audit, OAuthConfig oauth) {
        this.audit = audit;
        this.scope = oauth.requiredScopes().filter(s -> !s.isEmpty()).map(s -> ", scope=\"" + String.join(" ", s) + "\"")
                .orElse("");
    }

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
                        boolean presented = auth != null && !auth.isBlank();
                        if (presented) {
                            value += ", error=\"invalid_token\"";
                        }
                        value += scope;
                        rc.response().headers().set("WWW-Authenticate", value);
                        var addr = rc.request().remoteAddress();
                        var caller = Caller.anonymous(addr == null ? null : addr.hostAddress(),
                                rc.request().getHeader("User-Agent"), rc.request().getHeader("Mcp-Session-Id"));
                        // On the event loop: queue the record, never wait for it. Nothing is served either way.
                        audit.appendLater(AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, RequestIds.next()).caller(caller)
                                .method(rc.request().method().name() + " " + path).decision("DENY")
                                .outcome(presented ? "invalid-token" : "no-token").build());
                    }
                });
            }
            rc.next();
        }, PRIORITY);
    }
}
