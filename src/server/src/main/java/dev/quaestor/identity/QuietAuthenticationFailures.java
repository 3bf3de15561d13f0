package dev.quaestor.identity;

import dev.quaestor.audit.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.AuditUnavailableException;
import dev.quaestor.audit.Caller;
import dev.quaestor.audit.RequestIds;
import io.quarkus.oidc.runtime.OidcAuthenticationMechanism;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The OIDC mechanism, asked first, with the reason stripped from a refused token. The reason names
 * the identity provider's setup (the OIDC client, whether it can introspect, which keys it has), and
 * in dev mode the security layer would send it as the 401's body; a caller learns only that its
 * token was refused. The reason stays in the server's log at DEBUG.
 *
 * <p>Every 401 from /mcp is audited ({@code AUTHENTICATION}: source address, user agent, {@code no-token} or
 * {@code invalid-token}; never the token) and sent only once that record has committed, without blocking the
 * I/O thread: a crash loses no refusal a caller was told of. If it cannot be recorded, the caller gets 503 instead.
 * How many a source address can make is bounded by {@link UnauthenticatedThrottle}.
 */
@ApplicationScoped
public class QuietAuthenticationFailures implements HttpAuthenticationMechanism {

    private static final Logger LOG = Logger.getLogger(QuietAuthenticationFailures.class);
    /** Where the 401's request id is kept for {@link BearerChallenge}, which writes it as {@code X-Request-Id}. */
    static final String REQUEST_ID = "quaestor.challenge.request-id";
    /** Where the security layer keeps the mechanism whose challenge a refused request gets. */
    private static final String SELECTED = HttpAuthenticationMechanism.class.getName();

    private final OidcAuthenticationMechanism oidc;
    private final AuditLog audit;

    QuietAuthenticationFailures(OidcAuthenticationMechanism oidc, AuditLog audit) {
        this.oidc = oidc;
        this.audit = audit;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        return oidc.authenticate(context, identityProviderManager)
                // The OIDC mechanism names itself as the one to challenge with; on /mcp it is this one, whose
                // challenge is sent only once it is on record.
                .onTermination().invoke(() -> {
                    if (mcp(context) && context.get(SELECTED) != null) {
                        context.put(SELECTED, this);
                    }
                })
                .onFailure(AuthenticationFailedException.class).transform(failure -> {
                    LOG.debugf("token refused: %s", failure.getMessage());
                    return new AuthenticationFailedException(((AuthenticationFailedException) failure).getAttributes());
                });
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return oidc.getChallenge(context).onItem().transformToUni(challenge -> recorded(context, challenge));
    }

    /** A 401 from /mcp, once its record has committed; anything else as it is. */
    private Uni<ChallengeData> recorded(RoutingContext rc, ChallengeData challenge) {
        String path = rc.request().path();
        if (challenge == null || challenge.status != 401 || !mcp(rc)) {
            return Uni.createFrom().item(challenge);
        }
        String auth = rc.request().getHeader("Authorization");
        boolean presented = auth != null && !auth.isBlank();
        var addr = rc.request().remoteAddress();
        var caller = Caller.anonymous(addr == null ? null : addr.hostAddress(), rc.request().getHeader("User-Agent"),
                rc.request().getHeader("Mcp-Session-Id"));
        String requestId = RequestIds.next();
        var event = AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, requestId).caller(caller)
                .method(rc.request().method().name() + " " + path).decision("DENY")
                .outcome(presented ? "invalid-token" : "no-token").build();
        Context here = Vertx.currentContext();
        try {
            var committed = audit.submit(event).committed();
            rc.put(REQUEST_ID, requestId);
            Uni<ChallengeData> sent = Uni.createFrom().completionStage(committed).replaceWith(challenge)
                    .onFailure().recoverWithItem(e -> unrecorded(e));
            return here == null ? sent : sent.emitOn(r -> here.runOnContext(v -> r.run()));
        } catch (AuditUnavailableException e) {
            return Uni.createFrom().item(unrecorded(e));
        }
    }

    private static boolean mcp(RoutingContext rc) {
        String path = rc.request().path();
        return path.equals("/mcp") || path.startsWith("/mcp/");
    }

    private static ChallengeData unrecorded(Throwable e) {
        LOG.warnf("a refused authentication could not be recorded; answered with 503: %s", e.toString());
        return new ChallengeData(503, "Retry-After", "5");
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
