package dev.quaestor.identity;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The identity for a token {@link CachedBearerAuthentication} found in the {@link VerifiedTokenCache}, bound to the
 * request. Going through the identity provider manager, rather than answering the mechanism directly, keeps every
 * identity augmentor running on it as on any other identity.
 */
@ApplicationScoped
public class CachedBearerIdentityProvider implements IdentityProvider<CachedBearerRequest> {

    @Override
    public Class<CachedBearerRequest> getRequestType() {
        return CachedBearerRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(CachedBearerRequest request, AuthenticationRequestContext context) {
        return Uni.createFrom().item(VerifiedTokenCache.rebind(request.verified(),
                HttpSecurityUtils.getRoutingContextAttribute(request), context));
    }
}
