package dev.quaestor.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.runtime.OidcUtils;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Identities built from bearer JWTs that quarkus-oidc has fully verified (signature, issuer,
 * audience, expiry), keyed by the token's SHA-256, so that a client sending the same token on
 * every request pays for one signature check rather than one per request. quarkus-oidc caches
 * only introspection and UserInfo results, not JWT verification.
 *
 * <p>What makes it safe: only identities that passed verification are stored (a refused token is
 * checked again every time); an entry never outlives the token's {@code exp}, nor the configured
 * TTL; a token whose signing key the issuer withdraws is refused on a hit too ({@link WithdrawnKeys}); the token itself is not kept,
 * only its hash: the stored identity has no credential, and its principal holds the token's claims, not the token
 * ({@link VerifiedClaims}); an entry serves only requests for the OIDC tenant that verified it (its issuer, keys and
 * audience); and the attributes that belong to the request that verified the token (its routing context) are
 * removed before storing and replaced by the current request's on a hit ({@link ReboundIdentity}).
 */
@ApplicationScoped
public class VerifiedTokenCache {

    /** Marks an identity served from here, so that {@link VerifiedTokenRecorder} does not store it again. */
    static final String FROM_CACHE = "quaestor.identity.from-cache";

    /** Attribute names under which an identity carries objects bound to one request. */
    private static final List<String> REQUEST_BOUND = List.of(RoutingContext.class.getName(),
            HttpSecurityUtils.ROUTING_CONTEXT_ATTRIBUTE, AuthenticationRequestContext.class.getName());

    /** The identity attribute in which quarkus-oidc names the tenant that verified a token. */
    static final String TENANT = OidcUtils.TENANT_ID_ATTRIBUTE;

    /** {@code weight}: what the entry counts against {@code token-cache.max-bytes}. */
    private record Entry(SecurityIdentity identity, String tenant, long expiresAtMillis, int weight) {
    }

    private final Cache<TokenFingerprint, Entry> entries;
    private final long ttlMillis;
    private final IdentityMapper mapper;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final InstantSource clock;
    private final int leastWeight;

    @Inject
    VerifiedTokenCache(IdentityConfig config, IdentityMapper mapper, MeterRegistry registry) {
        this(config, mapper, registry, InstantSource.system());
    }

    /** {@code clock} tells the time entries end by (a test moves it on rather than waiting). */
    VerifiedTokenCache(IdentityConfig config, IdentityMapper mapper, MeterRegistry registry, InstantSource clock) {
        this.clock = clock;
        this.mapper = mapper;
        this.ttlMillis = config.tokenCache().ttl().toMillis();
        int max = config.tokenCache().maxEntries();
        long maxBytes = config.tokenCache().maxBytes();
        // Each entry weighs at least maxBytes / max, so the weight bounds the count too.
        this.leastWeight = (int) Math.min(Integer.MAX_VALUE, Math.max(1, maxBytes / Math.max(1, max)));
        this.entries = max <= 0 || ttlMillis <= 0 || maxBytes <= 0 ? null : Caffeine.newBuilder()
                .maximumWeight(maxBytes)
                .weigher((TokenFingerprint k, Entry e) -> e.weight())
                .expireAfter(Expiry.creating((TokenFingerprint k, Entry e) ->
                        Duration.ofMillis(Math.max(0, e.expiresAtMillis() - clock.millis()))))
                .executor(Runnable::run) // upkeep on the event loop that reads it: no hand-off to another pool
                .build();
        for (var result : List.of(Map.entry("hit", hits), Map.entry("miss", misses))) {
            FunctionCounter.builder("quaestor.identity.token.cache", result.getValue(), LongAdder::sum)
                    .tag("result", result.getKey())
                    .description("Bearer tokens accepted from the verified-token cache, or sent on to full verification")
                    .register(registry);
        }
    }

    /** For tests and diagnostics: hits, misses and entries. */
    public String stats() {
        return "hits=" + hits.sum() + " misses=" + misses.sum() + " entries=" + (entries == null ? 0 : entries.estimatedSize())
                + " instance=" + System.identityHashCode(this);
    }

    /** How many tokens are remembered, once evictions due have been made (for tests). */
    long size() {
        if (entries == null) {
            return 0;
        }
        entries.cleanUp();
        return entries.estimatedSize();
    }

    /** Tokens answered from the cache since start. */
    public long hits() {
        return hits.sum();
    }

    public boolean enabled() {
        return entries != null;
    }

    /**
     * The identity for a token that {@code tenant} verified earlier and that is still valid, bound to the current
     * request; else null. Counted as a hit or a miss.
     */
    SecurityIdentity find(String token, String tenant, RoutingContext request, AuthenticationRequestContext context) {
        SecurityIdentity stored = lookup(token, tenant);
        if (stored == null) {
            misses.increment();
            return null;
        }
        hits.increment();
        return rebind(stored, request, context);
    }

    /**
     * The identity, as stored, for a token that {@code tenant} verified earlier and that is still valid; else null.
     * Not counted: a caller that answers with it counts a {@link #hit}.
     */
    SecurityIdentity lookup(String token, String tenant) {
        if (entries == null) {
            return null;
        }
        Entry entry = entries.getIfPresent(TokenFingerprint.of(token));
        // Caffeine drops expired entries lazily; the clock is checked here as well so an expired token never passes.
        if (entry == null || entry.expiresAtMillis() <= clock.millis() || !entry.tenant().equals(tenant)) {
            return null;
        }
        return entry.identity();
    }

    /** Counts a token answered from here by a caller of {@link #lookup}. */
    void hit() {
        hits.increment();
    }

    /** A stored identity bound to the request it now serves. */
    static SecurityIdentity rebind(SecurityIdentity stored, RoutingContext request, AuthenticationRequestContext context) {
        return new ReboundIdentity(stored, request, context);
    }

    /** Stores an identity that quarkus-oidc has just verified from a bearer JWT; anything else is ignored. */
    void remember(SecurityIdentity verified) {
        if (entries == null || verified.isAnonymous() || verified.getAttribute(FROM_CACHE) != null
                || !(verified.getPrincipal() instanceof JsonWebToken jwt)) {
            return;
        }
        AccessTokenCredential credential = verified.getCredential(AccessTokenCredential.class);
        if (credential == null || credential.isOpaque() || credential.getToken() == null
                || !(verified.getAttribute(TENANT) instanceof String tenant)) {
            return;
        }
        long now = clock.millis();
        long expiresAt = Math.min(jwt.getExpirationTime() * 1000L, now + ttlMillis);
        if (expiresAt <= now) {
            return;
        }
        Identity mapped;
        VerifiedClaims claims;
        try {
            mapped = mapper.map(jwt);
            claims = new VerifiedClaims(jwt); // its name is read here: a claim that is not text throws (refused downstream)
        } catch (RuntimeException unmappable) {
            return; // such a token is refused downstream every time; nothing to gain from keeping it
        }
        // Built afresh, not copied: a copy (builder(verified)) keeps the credential, the token's principal, and a
        // permission checker that refers to the verified identity, each of which holds the token.
        var stored = QuarkusSecurityIdentity.builder()
                .setPrincipal(claims)
                .addRoles(verified.getRoles())
                .addPermissions(verified.getPermissions())
                .addAttributes(verified.getAttributes())
                .addAttribute(IdentityMapper.MAPPED, mapped)
                .addAttribute(WithdrawnKeys.KEY_ID, WithdrawnKeys.of(credential.getToken()));
        REQUEST_BOUND.forEach(name -> stored.addAttribute(name, null));
        entries.put(TokenFingerprint.of(credential.getToken()), new Entry(stored.build(), tenant, expiresAt,
                Math.max(leastWeight, credential.getToken().length())));
    }
}
