package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.quarkus.oidc.TenantConfigResolver;
import io.quarkus.oidc.TenantResolver;
import io.quarkus.oidc.runtime.OidcTenantConfig;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.oidc.runtime.TenantConfigBean;
import io.quarkus.oidc.runtime.TenantConfigContext;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.ArrayList;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Which OIDC tenant quarkus-oidc resolves for a path, as it resolved it for an earlier request to that path; so that
 * {@link CachedBearerAuthentication} can tell, before quarkus-oidc runs, which tenant a request is for, and a token
 * one tenant verified never serves a path of another.
 *
 * <p>Learned rather than worked out again: quarkus-oidc's own resolution is what counts. It is taken as a function of
 * the path only where it is one: for a request without cookies (a session or state cookie names a tenant) and with no
 * tenant chosen before authentication, and only while no custom tenant resolver, no resolution by the token's issuer
 * and no tenant chosen by a header of its own are configured; otherwise nothing is learned and every request goes to
 * quarkus-oidc. Only tenants whose bearer check is a plain {@code Authorization: Bearer} token are learned: a web
 * application, a token bound to a client certificate or a DPoP proof needs quarkus-oidc on every request.
 */
@ApplicationScoped
public class PathTenants {

    /** Where quarkus-oidc keeps the configuration of the tenant it resolved for a request. */
    static final String RESOLVED = "io.quarkus.oidc.OidcTenantConfig";
    /** Where quarkus-oidc keeps the id of that tenant (also set from a session or state cookie, or a {@code @Tenant}). */
    static final String TENANT_ID = OidcUtils.TENANT_ID_ATTRIBUTE;
    private static final String DEFAULT_TENANT = OidcUtils.DEFAULT_TENANT_ID;
    private static final String AUTHORIZATION = HttpHeaders.AUTHORIZATION.toString();
    /** Paths remembered; another path is sent to quarkus-oidc and learned there. */
    private static final int PATHS = 1024;

    /** A tenant a request was resolved to: its id and its configuration, as quarkus-oidc keeps them. */
    record Tenant(String id, Object config, String scheme) {
    }

    private final Cache<String, Tenant> byPath = Caffeine.newBuilder().maximumSize(PATHS)
            .executor(Runnable::run) // upkeep on the event loop that reads it: no hand-off to another pool
            .build();
    /** Why resolution is not a function of the path here, or null when it is. */
    private final String notByPath;

    PathTenants(TenantConfigBean tenants, Instance<TenantResolver> resolvers, Instance<TenantConfigResolver> configResolvers,
            @ConfigProperty(name = "quarkus.oidc.resolve-tenants-with-issuer", defaultValue = "false") boolean byIssuer) {
        var reasons = new ArrayList<String>();
        if (!resolvers.isUnsatisfied() || !configResolvers.isUnsatisfied()) {
            reasons.add("a custom tenant resolver");
        }
        if (byIssuer) {
            reasons.add("tenants resolved by issuer");
        }
        var all = new ArrayList<TenantConfigContext>(tenants.getStaticTenantsConfig().values());
        all.add(tenants.getDefaultTenant());
        for (TenantConfigContext tenant : all) {
            OidcTenantConfig config = tenant == null ? null : tenant.oidcConfig();
            if (config != null && config.token().header().filter(h -> !AUTHORIZATION.equalsIgnoreCase(h)).isPresent()) {
                reasons.add("a tenant chosen by its token header");
            }
        }
        this.notByPath = reasons.isEmpty() ? null : String.join(", ", reasons);
    }

    /** Why tenants are never learned by path here, or null. */
    String notByPath() {
        return notByPath;
    }

    /** Whether quarkus-oidc's choice of tenant for this request depends on nothing but its path. */
    boolean byPathAlone(RoutingContext rc) {
        return notByPath == null && rc.get(TENANT_ID) == null && !rc.request().headers().contains(HttpHeaders.COOKIE);
    }

    /** The tenant learned for this request's path, if the request is one whose tenant follows from its path; else null. */
    Tenant of(RoutingContext rc) {
        String path = rc.request().path();
        return path != null && byPathAlone(rc) ? byPath.getIfPresent(path) : null;
    }

    /**
     * Learns the tenant quarkus-oidc resolved for a request; call it once quarkus-oidc has authenticated the request (or
     * refused it), with {@code byPathAlone} as it was before. A tenant whose bearer check needs quarkus-oidc on every
     * request is not learned.
     */
    void learn(RoutingContext rc, boolean byPathAlone) {
        String path = rc.request().path();
        if (!byPathAlone || path == null || !(rc.get(RESOLVED) instanceof OidcTenantConfig config) || !plainBearer(config)) {
            return;
        }
        byPath.put(path, new Tenant(config.tenantId().orElse(DEFAULT_TENANT), config,
                config.token().authorizationScheme()));
    }

    /** Marks a request as resolved to {@code tenant}, as quarkus-oidc's resolution does. */
    static void resolved(RoutingContext rc, Tenant tenant) {
        rc.put(RESOLVED, tenant.config());
        rc.put(TENANT_ID, tenant.id());
    }

    /** The id of the tenant quarkus-oidc resolved for this request, or null if it has not. */
    static String resolvedTenant(RoutingContext rc) {
        return rc != null && rc.get(RESOLVED) instanceof OidcTenantConfig config ? config.tenantId().orElse(DEFAULT_TENANT) : null;
    }

    /** A service tenant that takes a plain bearer token from {@code Authorization}: no client certificate, no DPoP. */
    private static boolean plainBearer(OidcTenantConfig config) {
        var token = config.token();
        return config.tenantEnabled()
                && config.applicationType().orElse(OidcTenantConfig.ApplicationType.SERVICE) == OidcTenantConfig.ApplicationType.SERVICE
                && token.header().map(AUTHORIZATION::equalsIgnoreCase).orElse(true)
                && "Bearer".equalsIgnoreCase(token.authorizationScheme())
                && !token.binding().certificate();
    }
}
