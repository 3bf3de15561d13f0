package dev.quaestor.identity;

import io.quarkus.oidc.runtime.OidcAuthenticationMechanism;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The OIDC mechanism, asked first, with the reason stripped from a refused token. The reason names
 * the identity provider's setup (the OIDC client, whether it can introspect, which keys it has), and
 * in dev mode the security layer would send it as the 401's body; a caller learns only that its
 * token was refused. The reason stays in the server's log at DEBUG, and the refusal is audited.
 */
@ApplicationScoped
public class QuietAuthenticationFailures implements HttpAuthenticationMechanism {

    private static final Logger LOG = Logger.getLogger(QuietAuthenticationFailures.class);

    private final OidcAuthenticationMechanism oidc;

    QuietAuthenticationFailures(OidcAuthenticationMechanism oidc) {
        this.oidc = oidc;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        return oidc.authenticate(context, identityProviderManager)
                .onFailure(AuthenticationFailedException.class).transform(failure -> {
                    LOG.debugf("token refused: %s", failure.getMessage());
                    return new AuthenticationFailedException(((AuthenticationFailedException) failure).getAttributes());
                });
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return oidc.getChallenge(context);
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return oidc.getCredentialTypes();
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return oidc.getCredentialTransport(context);
    }

    /** Before the OIDC mechanism itself, which then only sees requests this one found no token in. */
    @Override
    public int getPriority() {
        return oidc.getPriority() + 1;
    }
}
