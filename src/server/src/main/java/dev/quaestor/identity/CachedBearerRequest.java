package dev.quaestor.identity;

import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/**
 * A bearer token found in the {@link VerifiedTokenCache} by {@link CachedBearerAuthentication}: what it carries is the
 * identity quarkus-oidc built when it verified the token, which {@link CachedBearerIdentityProvider} binds to the
 * request. Only this package makes one.
 */
final class CachedBearerRequest extends BaseAuthenticationRequest {

    private final SecurityIdentity verified;

    CachedBearerRequest(SecurityIdentity verified) {
        this.verified = verified;
    }

    SecurityIdentity verified() {
        return verified;
    }
}
