package dev.quaestor.identity;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditUnavailableException;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.refusals.RecordedRefusal;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.http.SourceAddress;
import io.quarkus.oidc.OIDCException;
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
import java.util.HashSet;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The OIDC mechanism, asked first, with the reason stripped from a refused token. The reason names
 * the identity provider's setup (the OIDC client, whether it can introspect, which keys it has), and
 * in dev mode the security layer would send it as the 401's body; a caller learns only that its
 * token was refused. The reason, in fixed words ({@link RefusedTokenReason}), is on record and in the log at DEBUG.
 *
 * <p>Every 401 from /mcp, the auditor API and the administrator API ({@link TokenDoors}) is audited ({@code AUTHENTICATION}: source address, user agent, {@code no-token} or
 * {@code invalid-token}; never the token) and sent only once that record has committed, without blocking the
 * I/O thread: a crash loses no refusal a caller was told of. If it cannot be recorded, the caller gets 503 instead.
 * How many records a source address, and all of them together, can make is bounded by {@link UnauthenticatedThrottle}:
 * past it the refusals are counted into summaries, and the 401 carries the summary's request id.
 *
 * <p>While the identity provider cannot be reached (no keys, no discovery), no token can be checked: a request to
 * /mcp is then answered 503 with {@code Retry-After}, on record as {@code issuer-unavailable}, rather than with the
 * security layer's 500.
 */
@ApplicationScoped
public class QuietAuthenticationFailures implements HttpAuthenticationMechanism {

    private static final Logger LOG = Logger.getLogger(QuietAuthenticationFailures.class);
    /** Where the 401's request id is kept for {@link BearerChallenge}, which writes it as {@code X-Request-Id}. */
    static final String REQUEST_ID = "quaestor.challenge.request-id";
    /** Where the security layer keeps the mechanism whose challenge a refused request gets. */
    private static final String SELECTED = HttpAuthenticationMechanism.class.getName();
    /** Marks a request whose token could not be checked because the identity provider did not answer. */
    private static final String ISSUER_DOWN = "quaestor.challenge.issuer-unavailable";
    /** Why the token was refused ({@link RefusedTokenReason}), for its record. */
    private static final String REASON = "quaestor.challenge.reason";

    private final OidcAuthenticationMechanism oidc;
    private final UnauthenticatedThrottle throttle;
    private final CachedBearerAuthentication cached;
    private final PathTenants tenants;
    private final PublishedKeys keys;

    QuietAuthenticationFailures(OidcAuthenticationMechanism oidc, UnauthenticatedThrottle throttle,
            CachedBearerAuthentication cached, PathTenants tenants, PublishedKeys keys) {
        this.oidc = oidc;
        this.throttle = throttle;
        this.cached = cached;
        this.tenants = tenants;
        this.keys = keys;
    }

    /**
     * A known token from the verified-token cache when {@link CachedBearerAuthentication} can answer it; else the
     * OIDC mechanism, which then tells {@link PathTenants} which tenant it resolved for the path.
     */
    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        Uni<SecurityIdentity> identity = cached.attempt(context, identityProviderManager);
        if (identity != null) {
            // Named as the OIDC mechanism names itself when it hands a token on, and as below on /mcp.
            context.put(SELECTED, recordedDoor(context) ? this : oidc);
        } else {
            boolean byPathAlone = tenants.byPathAlone(context);
            identity = oidc.authenticate(context, identityProviderManager)
                    // The OIDC mechanism names itself as the one to challenge with; on /mcp it is this one, whose
                    // challenge is sent only once it is on record.
                    .onTermination().invoke(() -> {
                        tenants.learn(context, byPathAlone);
                        if (recordedDoor(context) && context.get(SELECTED) != null) {
                            context.put(SELECTED, this);
                        }
                    });
        }
        return identity.onFailure().transform(failure -> refused(context, failure));
    }

    /** A refused token without its reason; an identity provider that did not answer, on /mcp, as a 503 to come. */
    private Throwable refused(RoutingContext context, Throwable failure) {
        if (failure instanceof AuthenticationFailedException refused) {
            String reason = RefusedTokenReason.of(refused);
            if (reason == null && context.request().getHeader("Authorization") != null) {
                reason = RefusedTokenReason.ofToken(context.request().getHeader("Authorization"), keys);
            }
            LOG.debugf("token refused: %s", reason);
            if (reason != null) {
                context.put(REASON, reason);
            }
            return new AuthenticationFailedException(refused.getAttributes());
        }
        if (issuerDown(failure) && recordedDoor(context)) {
            LOG.warnf("a token could not be checked, the identity provider is not available: %s", failure.getMessage());
            context.put(ISSUER_DOWN, Boolean.TRUE);
            context.put(SELECTED, this);
            return new AuthenticationFailedException();
        }
        return failure;
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        if (context.get(ISSUER_DOWN) != null) {
            return recorded(context, new ChallengeData(503, "Retry-After", "5"), "issuer-unavailable");
        }
        return oidc.getChallenge(context).onFailure(failure -> issuerDown(failure) && recordedDoor(context)).recoverWithUni(failure -> {
            LOG.warnf("a refusal could not be answered by the identity provider's rules, it is not available: %s",
                    failure.getMessage());
            return recorded(context, new ChallengeData(503, "Retry-After", "5"), "issuer-unavailable");
        }).onItem().transformToUni(challenge -> {
            if (challenge == null || challenge.status != 401 || !recordedDoor(context)) {
                return Uni.createFrom().item(challenge);
            }
            String auth = context.request().getHeader("Authorization");
            return recorded(context, challenge, auth != null && !auth.isBlank() ? "invalid-token" : "no-token");
        });
    }

    /** A refusal of an unauthenticated request to a recorded door, once its record has committed. */
    private Uni<ChallengeData> recorded(RoutingContext rc, ChallengeData challenge, String outcome) {
        String path = rc.request().path();
        var caller = Caller.anonymous(SourceAddress.of(rc.request()), rc.request().getHeader("User-Agent"),
                rc.request().getHeader("Mcp-Session-Id"));
        String requestId = RequestIds.next();
        var event = AuditEvent.of(AuditEvent.Kind.AUTHENTICATION, requestId).caller(caller)
                .method(rc.request().method().name() + " " + path).decision("DENY")
                .outcome(outcome).detail(rc.get(REASON)).build();
        Context here = Vertx.currentContext();
        try {
            RecordedRefusal record = throttle.record(event, caller.sourceIp());
            rc.put(REQUEST_ID, record.requestId());
            Uni<ChallengeData> sent = Uni.createFrom().completionStage(record.committed()).replaceWith(challenge)
                    .onFailure().recoverWithItem(e -> unrecorded(e));
            return here == null ? sent : sent.emitOn(r -> here.runOnContext(v -> r.run()));
        } catch (AuditUnavailableException e) {
            return Uni.createFrom().item(unrecorded(e));
        }
    }

    /** Whether a failure comes from an identity provider that did not answer (discovery or keys). */
    private static boolean issuerDown(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof OIDCException) {
                return true;
            }
        }
        return false;
    }

    /** A door whose refused tokens are on record ({@link TokenDoors}). */
    private static boolean recordedDoor(RoutingContext rc) {
        return TokenDoors.recorded(rc.request().path());
    }

    private static ChallengeData unrecorded(Throwable e) {
        LOG.warnf("a refused authentication could not be recorded; answered with 503: %s", e.toString());
        return new ChallengeData(503, "Retry-After", "5");
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        var types = new HashSet<>(oidc.getCredentialTypes());
        types.add(CachedBearerRequest.class);
        return types;
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
