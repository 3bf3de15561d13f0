package dev.quaestor.identity;

import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Hands every identity that an identity provider has just built to the {@link VerifiedTokenCache}.
 * Augmentors run only after a provider has accepted the credential, and this one runs before all
 * others, so the cache holds the provider's identity as it was and later augmentors run again on
 * a cached one exactly as they would on a fresh one.
 */
@ApplicationScoped
public class VerifiedTokenRecorder implements SecurityIdentityAugmentor {

    private final VerifiedTokenCache cache;

    VerifiedTokenRecorder(VerifiedTokenCache cache) {
        this.cache = cache;
    }

    @Override
    public int priority() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        cache.remember(identity);
        return Uni.createFrom().item(identity);
    }
}
