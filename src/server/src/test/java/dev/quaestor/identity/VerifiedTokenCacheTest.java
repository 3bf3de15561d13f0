package dev.quaestor.identity;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VerifiedTokenCacheTest {

    /** The OIDC tenant that verifies the tokens below, as quarkus-oidc names it on the identity. */
    private static final String TENANT = "Default";
    private static final AuthenticationRequestContext FIRST = new Ctx();
    private static final AuthenticationRequestContext SECOND = new Ctx();

    private record Ctx() implements AuthenticationRequestContext {
        @Override
        public Uni<SecurityIdentity> runBlocking(Supplier<SecurityIdentity> function) {
            return Uni.createFrom().item(function);
        }
    }

    private static IdentityConfig config(int maxEntries, Duration ttl) {
        return config(maxEntries, 16 << 20, ttl);
    }

    private static IdentityConfig config(int maxEntries, long maxBytes, Duration ttl) {
        return new IdentityConfig() {
            public List<String> subjectClaims() { return List.of("sub"); }
            public List<String> rolesClaims() { return List.of("roles"); }
            public List<String> groupsClaims() { return List.of("groups"); }
            public List<String> clientClaims() { return List.of("azp"); }
            public List<String> tenantClaims() { return List.of("tenant"); }
            public List<String> scopeClaims() { return List.of("scope"); }
            public TokenCache tokenCache() {
                return new TokenCache() {
                    public int maxEntries() { return maxEntries; }
                    public long maxBytes() { return maxBytes; }
                    public Duration ttl() { return ttl; }
                };
            }
            public UnauthenticatedLimit unauthenticatedLimit() { throw new UnsupportedOperationException(); }
            public Duration issuerRetry() { return Duration.ofSeconds(5); }
            public Duration keyCheckInterval() { return Duration.ofSeconds(60); }
        };
    }

    /** The time the caches below tell; a test moves it on instead of waiting. */
    private final java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(System.currentTimeMillis());

    private VerifiedTokenCache cache(int maxEntries, Duration ttl) {
        return cache(maxEntries, 16 << 20, ttl);
    }

    private VerifiedTokenCache cache(int maxEntries, long maxBytes, Duration ttl) {
        var cfg = config(maxEntries, maxBytes, ttl);
        return new VerifiedTokenCache(cfg, new IdentityMapper(cfg), new SimpleMeterRegistry(),
                () -> java.time.Instant.ofEpochMilli(now.get()));
    }

    /** A string shaped like a compact JWS, as quarkus-oidc requires of a bearer token it treats as a JWT. */
    private static String jwt(String name) {
        return "eyJhbGciOiJSUzI1NiJ9." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString(("{\"jti\":\"" + name + "\"}").getBytes()) + ".c2ln";
    }

    /** An identity as quarkus-oidc builds it for a verified bearer JWT, with request-bound attributes. */
    private static SecurityIdentity verified(String token, String subject, long expiresInSeconds, Object routingContext) {
        var claims = new JwtClaims();
        claims.setSubject(subject);
        claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + expiresInSeconds));
        claims.setStringListClaim("roles", List.of("clinician"));
        var credential = new AccessTokenCredential(jwt(token));
        return QuarkusSecurityIdentity.builder()
                .setPrincipal(new OidcJwtCallerPrincipal(claims, credential))
                .addCredential(credential).addRole("clinician")
                .addAttribute(RoutingContext.class.getName(), routingContext)
                .addAttribute(AuthenticationRequestContext.class.getName(), FIRST)
                .addAttribute(VerifiedTokenCache.TENANT, TENANT)
                .build();
    }

    @Test
    void aVerifiedTokenIsFoundAndReboundToTheCurrentRequest() {
        var cache = cache(100, Duration.ofMinutes(1));
        Object firstRequest = new Object();
        cache.remember(verified("tok-a", "alice", 300, firstRequest));
        var found = cache.find(jwt("tok-a"), TENANT, null, SECOND);
        assertNotNull(found);
        assertEquals("alice", found.getPrincipal().getName());
        assertTrue(found.getRoles().contains("clinician"));
        assertNull(found.getAttribute(RoutingContext.class.getName()), "the first request's routing context is not kept");
        assertSame(SECOND, found.getAttribute(AuthenticationRequestContext.class.getName()));
        assertEquals("alice", ((Identity) found.getAttribute(IdentityMapper.MAPPED)).subject());
        assertNull(cache.find(jwt("tok-b"), TENANT, null, SECOND), "another token is a miss");
    }

    @Test
    void aTokenServesOnlyTheTenantThatVerifiedIt() {
        var cache = cache(100, Duration.ofMinutes(1));
        cache.remember(verified("tok", "alice", 300, null));
        assertNull(cache.find(jwt("tok"), "console", null, SECOND), "another tenant's request is a miss");
        assertNull(cache.find(jwt("tok"), null, null, SECOND), "a request no tenant was resolved for is a miss");
        assertNull(cache.lookup(jwt("tok"), "console"));
        assertNotNull(cache.find(jwt("tok"), TENANT, null, SECOND));

        var claims = new JwtClaims();
        claims.setSubject("bob");
        claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + 300));
        var credential = new AccessTokenCredential(jwt("no-tenant"));
        cache.remember(QuarkusSecurityIdentity.builder().setPrincipal(new OidcJwtCallerPrincipal(claims, credential))
                .addCredential(credential).build());
        assertNull(cache.find(jwt("no-tenant"), TENANT, null, SECOND), "an identity that names no tenant is not kept");
    }

    @Test
    void aHitIsBoundToTheRequestItServesWithoutCopyingTheStoredIdentity() {
        var cache = cache(100, Duration.ofMinutes(1));
        cache.remember(verified("tok", "alice", 300, new Object()));
        var stored = cache.lookup(jwt("tok"), TENANT);
        var first = cache.find(jwt("tok"), TENANT, null, FIRST);
        var second = cache.find(jwt("tok"), TENANT, null, SECOND);
        assertSame(FIRST, first.getAttribute(AuthenticationRequestContext.class.getName()));
        assertSame(SECOND, second.getAttribute(AuthenticationRequestContext.class.getName()));
        assertSame(stored.getPrincipal(), second.getPrincipal());
        assertNull(second.getCredential(AccessTokenCredential.class), "the cache keeps no credential");
        assertEquals(stored.getRoles(), second.getRoles());
        assertNull(stored.getAttribute(VerifiedTokenCache.FROM_CACHE), "the stored identity is not marked");
        assertEquals(Boolean.TRUE, second.getAttributes().get(VerifiedTokenCache.FROM_CACHE));
        assertSame(SECOND, second.getAttributes().get(AuthenticationRequestContext.class.getName()));
        assertEquals(TENANT, second.getAttributes().get(VerifiedTokenCache.TENANT));
        assertFalse(second.getAttributes().containsKey(RoutingContext.class.getName()), "no request, no routing context");
    }

    @Test
    void theStoredIdentityKeepsTheClaimsRolesAndPermissionsButNotTheToken() {
        var cache = cache(100, Duration.ofMinutes(1));
        var claims = new JwtClaims();
        claims.setSubject("alice");
        claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + 300));
        claims.setClaim("sid", "session-1");
        claims.setStringListClaim("amr", List.of("pwd", "otp"));
        String token = jwt("tok");
        var credential = new AccessTokenCredential(token);
        var principal = new OidcJwtCallerPrincipal(claims, credential);
        var verified = QuarkusSecurityIdentity.builder().setPrincipal(principal).addCredential(credential)
                .addRole("clinician").addPermissionAsString("resources:read")
                .addAttribute(VerifiedTokenCache.TENANT, TENANT).build();
        assertTrue(verified.checkPermissionBlocking(new io.quarkus.security.StringPermission("resources", "read")), "as verified");
        cache.remember(verified);
        var stored = cache.lookup(token, TENANT);
        assertNotNull(stored);
        assertTrue(stored.getCredentials().isEmpty(), "no credential: " + stored.getCredentials());
        var kept = (org.eclipse.microprofile.jwt.JsonWebToken) stored.getPrincipal();
        assertNull(kept.getRawToken(), "not the token");
        assertFalse(kept.getClaimNames().contains("raw_token"), "" + kept.getClaimNames());
        assertFalse(kept.toString().contains(token), kept.toString());
        for (String name : kept.getClaimNames()) {
            assertFalse(String.valueOf((Object) kept.getClaim(name)).contains(token), name);
            assertEquals(String.valueOf((Object) principal.getClaim(name)), String.valueOf((Object) kept.getClaim(name)), name);
        }
        assertEquals(principal.getName(), kept.getName());
        assertEquals(principal.getExpirationTime(), kept.getExpirationTime());
        assertEquals("session-1", String.valueOf((Object) kept.getClaim("sid")).replace("\"", ""));
        assertTrue(stored.hasRole("clinician"));
        assertEquals(verified.getPermissions(), stored.getPermissions(), "the verified identity's permissions");
        assertTrue(stored.checkPermissionBlocking(new io.quarkus.security.StringPermission("resources", "read")));
        assertFalse(stored.checkPermissionBlocking(new io.quarkus.security.StringPermission("resources", "write")));
    }

    @Test
    void entriesEndAtTheTtlEvenIfTheTokenLivesLonger() throws Exception {
        var cache = cache(100, Duration.ofMillis(300));
        cache.remember(verified("tok", "alice", 3600, null));
        now.addAndGet(299);
        assertNotNull(cache.find(jwt("tok"), TENANT, null, SECOND));
        now.addAndGet(1);
        assertNull(cache.find(jwt("tok"), TENANT, null, SECOND));
    }

    @Test
    void expiredOrUnverifiableIdentitiesAreNeverStored() {
        var cache = cache(100, Duration.ofMinutes(1));
        cache.remember(verified("expired", "alice", -5, null));
        assertNull(cache.find(jwt("expired"), TENANT, null, SECOND));

        var opaque = new AccessTokenCredential(jwt("opaque"), null) {
            @Override
            public boolean isOpaque() {
                return true;
            }
        };
        var claims = new JwtClaims();
        claims.setSubject("alice");
        claims.setExpirationTime(NumericDate.fromSeconds(System.currentTimeMillis() / 1000 + 300));
        cache.remember(QuarkusSecurityIdentity.builder().setPrincipal(new OidcJwtCallerPrincipal(claims, opaque))
                .addCredential(opaque).addAttribute(VerifiedTokenCache.TENANT, TENANT).build());
        assertNull(cache.find(jwt("opaque"), TENANT, null, SECOND));

        cache.remember(QuarkusSecurityIdentity.builder().setPrincipal(() -> "basic-user")
                .addCredential(new AccessTokenCredential(jwt("not-a-jwt-principal"))).addAttribute(VerifiedTokenCache.TENANT, TENANT)
                .build());
        assertNull(cache.find(jwt("not-a-jwt-principal"), TENANT, null, SECOND));

        cache.remember(verified("no-subject", "", 300, null));
        assertNull(cache.find(jwt("no-subject"), TENANT, null, SECOND), "a token the mapper refuses is not kept");
    }

    @Test
    void anIdentityServedFromTheCacheIsNotStoredAgainSoItsLifetimeIsNotExtended() throws Exception {
        var cache = cache(100, Duration.ofMillis(600));
        cache.remember(verified("tok", "alice", 3600, null));
        now.addAndGet(300);
        var hit = cache.find(jwt("tok"), TENANT, null, SECOND);
        assertEquals(Boolean.TRUE, hit.getAttribute(VerifiedTokenCache.FROM_CACHE));
        cache.remember(hit); // what the recorder does with every identity, cached ones included
        now.addAndGet(299);
        assertNotNull(cache.find(jwt("tok"), TENANT, null, SECOND), "still within 600 ms of the one real verification");
        now.addAndGet(1);
        assertNull(cache.find(jwt("tok"), TENANT, null, SECOND), "the entry ended 600 ms after the one real verification");
    }

    /** Large tokens count by their size: a few of them cannot fill the memory that many small ones would share. */
    @Test
    void theCacheIsBoundedInBytesAsWellAsInEntries() {
        var bySize = cache(1000, 64 * 1024, Duration.ofMinutes(1));
        for (int i = 0; i < 20; i++) {
            bySize.remember(verified("big-" + i + "-" + "x".repeat(16_000), "alice", 300, null));
        }
        assertTrue(bySize.size() <= 4, "16 KB tokens in 64 KiB: " + bySize.size());
        assertTrue(bySize.size() >= 1, "some are kept: " + bySize.size());
        var byCount = cache(100, 16 << 20, Duration.ofMinutes(1));
        for (int i = 0; i < 300; i++) {
            byCount.remember(verified("small-" + i, "alice", 300, null));
        }
        assertTrue(byCount.size() <= 100, "at most max-entries small tokens: " + byCount.size());
        assertTrue(byCount.size() >= 90, "small tokens fill the entries: " + byCount.size());
    }

    @Test
    void zeroEntriesTurnsItOff() {
        var cache = cache(0, Duration.ofMinutes(1));
        assertFalse(cache.enabled());
        cache.remember(verified("tok", "alice", 300, null));
        assertNull(cache.find(jwt("tok"), TENANT, null, SECOND));
    }
}
