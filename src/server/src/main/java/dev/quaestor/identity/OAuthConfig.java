package dev.quaestor.identity;

import io.smallrye.config.ConfigMapping;
import java.util.List;
import java.util.Optional;

/** What the RFC 9728 protected-resource metadata document advertises. */
@ConfigMapping(prefix = "quaestor.oauth")
public interface OAuthConfig {

    /** Issuer URLs to advertise; defaults to {@code quarkus.oidc.auth-server-url}. */
    Optional<List<String>> authorizationServers();

    /** The resource identifier (RFC 8707) tokens must be issued for; defaults to the public URL of /mcp. */
    Optional<String> resource();

    /** Scopes to advertise; defaults to {@link #requiredScopes}. */
    Optional<List<String>> scopesSupported();

    /**
     * Scopes every token must hold for any MCP call (e.g. {@code resources:read}). A token without one of them
     * gets 403 with {@code WWW-Authenticate: Bearer error="insufficient_scope", scope="…"} (step-up), audited;
     * the 401 challenge names them too. None by default. A policy rule's {@code when: scopes} is a different
     * thing: a condition of that rule, whose denial is -32003.
     */
    Optional<List<String>> requiredScopes();
}
