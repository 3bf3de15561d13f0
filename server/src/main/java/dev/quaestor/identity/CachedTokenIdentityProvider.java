package dev.quaestor.identity;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Runs before quarkus-oidc's own identity provider: answers a bearer token from the
 * {@link VerifiedTokenCache} when it can, and otherwise returns nothing, which hands the request on
 * to full verification.
 */
@ApplicationScoped
public class CachedTokenIdentityProvider implements IdentityProvider<TokenAuthenticationRequest> {

    private final VerifiedTokenCache cache;

    CachedTokenIdentityProvider(VerifiedTokenCache cache) {
        this.cache = cache;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    /** Ahead of every provider Quarkus ships, which use priorities from SYSTEM_LAST (0) upwards. */
    @Override
    public int priority() {
        return SYSTEM_FIRST + 1;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        if (!cache.enabled() || !(request.getToken() instanceof AccessTokenCredential bearer) || bearer.isOpaque()) {
            return Uni.createFrom().nullItem();
        }
        return Uni.createFrom().item(cache.find(bearer.getToken(), HttpSecurityUtils.getRoutingContextAttribute(request), context));
    }
}
