package dev.quaestor.identity;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Refuses a bearer token issued in the future ({@code iat} more than a minute ahead of this server's clock): quarkus-oidc
 * checks {@code exp} and {@code nbf} but not {@code iat}, and such a token comes from an issuer whose clock is wrong or
 * from a key that signs what it should not. A minute allows for clocks that differ a little.
 */
@ApplicationScoped
public class FutureTokens implements SecurityIdentityAugmentor {

    static final Duration SKEW = Duration.ofMinutes(1);

    /** After {@link WithdrawnKeys}. */
    @Override
    public int priority() {
        return Integer.MAX_VALUE - 3;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (!identity.isAnonymous() && identity.getPrincipal() instanceof JsonWebToken jwt
                && jwt.getClaim("iat") instanceof Number issued
                && issued.longValue() > System.currentTimeMillis() / 1000 + SKEW.toSeconds()) {
            return Uni.createFrom().failure(new AuthenticationFailedException(new RefusedTokenReason.OwnCheck("issued in the future")));
        }
        return Uni.createFrom().item(identity);
    }
}
