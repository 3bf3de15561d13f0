package dev.quaestor.identity;

import io.quarkus.oidc.runtime.OidcAuthenticationMechanism;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import java.util.Set;

/**
 * quarkus-oidc bearer authentication with the challenge MCP clients need: a 401 names the RFC 9728
 * metadata document ({@code WWW-Authenticate: Bearer resource_metadata="..."}) so a client can
 * discover where to get a token. Token checks (signature, issuer, expiry, audience) stay OIDC's.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class BearerChallenge implements HttpAuthenticationMechanism {

    @Inject
    OidcAuthenticationMechanism oidc;

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        return oidc.authenticate(context, identityProviderManager);
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        String metadata = PublicUrl.of(context.request()) + "/.well-known/oauth-protected-resource/mcp";
        String header = context.request().getHeader("Authorization");
        String value = "Bearer resource_metadata=\"" + metadata + "\"";
        if (header != null && !header.isBlank()) {
            // RFC 6750 3.1: a token was presented and refused.
            value += ", error=\"invalid_token\"";
        }
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", value));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return oidc.getCredentialTypes();
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return oidc.getCredentialTransport(context);
    }
}
