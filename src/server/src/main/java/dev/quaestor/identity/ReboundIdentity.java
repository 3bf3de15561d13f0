package dev.quaestor.identity;

import io.quarkus.security.credential.Credential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import java.security.Permission;
import java.security.Principal;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * An identity from the {@link VerifiedTokenCache}, bound to the request it now serves: everything is the stored
 * identity's except the attributes that belong to one request (its routing context and the security layer's
 * request context), which are this request's, and the mark that it came from the cache. One small object per
 * request, where building a fresh identity copied every role, credential and attribute.
 */
final class ReboundIdentity implements SecurityIdentity {

    private static final String ROUTING_CONTEXT = RoutingContext.class.getName();
    private static final String REQUEST_CONTEXT = AuthenticationRequestContext.class.getName();

    private final SecurityIdentity stored;
    private final RoutingContext request;
    private final AuthenticationRequestContext context;

    ReboundIdentity(SecurityIdentity stored, RoutingContext request, AuthenticationRequestContext context) {
        this.stored = stored;
        this.request = request;
        this.context = context;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getAttribute(String name) {
        if (ROUTING_CONTEXT.equals(name) || HttpSecurityUtils.ROUTING_CONTEXT_ATTRIBUTE.equals(name)) {
            return (T) request;
        }
        if (REQUEST_CONTEXT.equals(name)) {
            return (T) context;
        }
        if (VerifiedTokenCache.FROM_CACHE.equals(name)) {
            return (T) Boolean.TRUE;
        }
        return stored.getAttribute(name);
    }

    /** The stored identity's attributes with this request's in place of the ones it was stored without. */
    @Override
    public Map<String, Object> getAttributes() {
        var all = new HashMap<>(stored.getAttributes());
        all.put(ROUTING_CONTEXT, request);
        all.put(HttpSecurityUtils.ROUTING_CONTEXT_ATTRIBUTE, request);
        all.put(REQUEST_CONTEXT, context);
        all.put(VerifiedTokenCache.FROM_CACHE, Boolean.TRUE);
        all.values().removeIf(v -> v == null);
        return Map.copyOf(all);
    }

    @Override
    public Principal getPrincipal() {
        return stored.getPrincipal();
    }

    @Override
    public boolean isAnonymous() {
        return stored.isAnonymous();
    }

    @Override
    public Set<String> getRoles() {
        return stored.getRoles();
    }

    @Override
    public boolean hasRole(String role) {
        return stored.hasRole(role);
    }

    @Override
    public Set<Permission> getPermissions() {
        return stored.getPermissions();
    }

    @Override
    public <T extends Credential> T getCredential(Class<T> type) {
        return stored.getCredential(type);
    }

    @Override
    public Set<Credential> getCredentials() {
        return stored.getCredentials();
    }

    @Override
    public Uni<Boolean> checkPermission(Permission permission) {
        return stored.checkPermission(permission);
    }

    @Override
    public boolean checkPermissionBlocking(Permission permission) {
        return stored.checkPermissionBlocking(permission);
    }

    @Override
    public Uni<Boolean> checkPermission(String permission) {
        return stored.checkPermission(permission);
    }

    @Override
    public boolean checkPermissionBlocking(String permission) {
        return stored.checkPermissionBlocking(permission);
    }
}
