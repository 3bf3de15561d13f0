package dev.quaestor.identity;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Runs before quarkus-oidc's own identity provider: answers a bearer token from the
 * {@link VerifiedTokenCache} when the tenant quarkus-oidc resolved for the request is the one that verified it,
 * and otherwise returns nothing, which hands the request on to full verification. (Most requests with a known
 * token are answered earlier, by {@link CachedBearerAuthentication}, without quarkus-oidc's mechanism.)
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

    /**
     * Ahead of every other provider. quarkus-oidc's own uses {@code SYSTEM_FIRST + 1}; an equal
     * priority would leave the order to bean discovery, and the cache would be consulted only sometimes.
     */
    @Override
    public int priority() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        if (!cache.enabled() || !(request.getToken() instanceof AccessTokenCredential bearer) || bearer.isOpaque()) {
            return Uni.createFrom().nullItem();
        }
        RoutingContext rc = HttpSecurityUtils.getRoutingContextAttribute(request);
        return Uni.createFrom().item(cache.find(bearer.getToken(), PathTenants.resolvedTenant(rc), rc, context));
    }
}
