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

    /** Scopes to advertise. */
    Optional<List<String>> scopesSupported();
}
