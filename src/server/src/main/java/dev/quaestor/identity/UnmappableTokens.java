package dev.quaestor.identity;

import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jboss.logging.Logger;

/**
 * Refuses a verified bearer token that names no one: one whose claims give no subject
 * ({@code quaestor.identity.subject-claims}; an object or a true/false is no subject), or whose name claim is not
 * text (quarkus-oidc's principal name: {@code upn}, {@code preferred_username} or {@code sub}), cannot be judged by the policy nor named in the audit log, so it is
 * an authentication failure like any other refused token (401 with {@code WWW-Authenticate}, and on /mcp an
 * {@code AUTHENTICATION} record, {@code invalid-token}), not an error in every endpoint that maps the caller.
 * Console sign-ins (an ID token) are left to the console.
 */
@ApplicationScoped
public class UnmappableTokens implements SecurityIdentityAugmentor {

    private static final Logger LOG = Logger.getLogger(UnmappableTokens.class);

    private final IdentityMapper mapper;

    UnmappableTokens(IdentityMapper mapper) {
        this.mapper = mapper;
    }

    /** After {@link VerifiedTokenRecorder} (which keeps no such token), before any other. */
    @Override
    public int priority() {
        return Integer.MAX_VALUE - 1;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken)
                || identity.getCredential(IdTokenCredential.class) != null) {
            return Uni.createFrom().item(identity);
        }
        try {
            mapper.of(identity); // a cached token's mapping is carried with it: no cost on a hit
            identity.getPrincipal().getName(); // a name claim that is not text (a number, an object) throws here, not later
        } catch (RuntimeException unmappable) {
            LOG.debugf("a verified token was refused: %s", unmappable.getMessage());
            return Uni.createFrom().failure(new AuthenticationFailedException(new RefusedTokenReason.OwnCheck("names no one")));
        }
        return Uni.createFrom().item(identity);
    }
}
