package dev.quaestor.identity;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.atomic.LongAdder;
import org.jboss.logging.Logger;

/**
 * A bearer token the {@link VerifiedTokenCache} holds, answered without quarkus-oidc's mechanism: no tenant
 * resolution, no decoding of the token's JSON to tell a JWT from an opaque token, just the token's hash looked up.
 *
 * <p>It answers only when quarkus-oidc would have taken the same token for the same tenant and then found it in the
 * cache: the request's tenant is the one quarkus-oidc resolved for its path before ({@link PathTenants}), that tenant
 * takes a plain {@code Authorization: Bearer} token, the token is read from the header exactly as quarkus-oidc reads it,
 * and the cache holds it, unexpired, as verified by that tenant. Everything else (no token, another scheme, an unknown,
 * expired or altered token, a token verified by another tenant, a request with cookies or an unlearned path) goes to
 * quarkus-oidc unchanged, with its challenges.
 */
@ApplicationScoped
public class CachedBearerAuthentication {

    private static final Logger LOG = Logger.getLogger(CachedBearerAuthentication.class);
    /** Set, quarkus-oidc hands each token to the Vert.x context as well, which this path would not. */
    private static final String PROPAGATE = "io.quarkus.oidc.runtime.AbstractOidcAuthenticationMechanism"
            + ".PROPAGATE_TOKEN_CREDENTIAL_WITH_DUPLICATED_CTX";

    private final VerifiedTokenCache cache;
    private final PathTenants tenants;
    private final boolean enabled;
    private final LongAdder answered = new LongAdder();

    CachedBearerAuthentication(VerifiedTokenCache cache, PathTenants tenants) {
        this.cache = cache;
        this.tenants = tenants;
        this.enabled = cache.enabled() && tenants.notByPath() == null && !Boolean.getBoolean(PROPAGATE);
        if (cache.enabled() && !enabled) {
            LOG.infof("known bearer tokens go through quarkus-oidc's mechanism on every request: %s",
                    tenants.notByPath() != null ? tenants.notByPath() : PROPAGATE);
        }
    }

    /**
     * The identity of a request whose bearer token the cache holds for the request's tenant, through the identity
     * provider manager (so that every augmentor runs on it); or null, not an empty {@code Uni}, when the request must
     * go to quarkus-oidc.
     */
    Uni<SecurityIdentity> attempt(RoutingContext rc, IdentityProviderManager identityProviderManager) {
        if (!enabled) {
            return null;
        }
        PathTenants.Tenant tenant = tenants.of(rc);
        if (tenant == null) {
            return null;
        }
        String token = bearerToken(rc.request().headers().get(HttpHeaders.AUTHORIZATION), tenant.scheme());
        SecurityIdentity verified = token == null ? null : cache.lookup(token, tenant.id());
        if (verified == null) {
            return null;
        }
        cache.hit();
        answered.increment();
        PathTenants.resolved(rc, tenant);
        return identityProviderManager.authenticate(
                HttpSecurityUtils.setRoutingContextAttribute(new CachedBearerRequest(verified), rc));
    }

    /** For tests and diagnostics: requests answered here since start (each also counted as a cache hit). */
    public long answered() {
        return answered.sum();
    }

    /** The token as quarkus-oidc takes it from the header: whatever follows the first space, if what precedes is the scheme. */
    static String bearerToken(String header, String scheme) {
        if (header == null) {
            return null;
        }
        int space = header.indexOf(' ');
        return space > 0 && space == scheme.length() && header.regionMatches(true, 0, scheme, 0, space)
                ? header.substring(space + 1) : null;
    }
}
