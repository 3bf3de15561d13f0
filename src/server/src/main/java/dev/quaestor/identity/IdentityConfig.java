package dev.quaestor.identity;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Which token claims make up an {@link Identity}. Paths use {@code /} to step into JSON objects. */
@ConfigMapping(prefix = "quaestor.identity")
public interface IdentityConfig extends RangeChecked {

    /** Claims whose values become the subject; the first present one wins. */
    @WithDefault("sub")
    List<String> subjectClaims();

    /** Claims whose values become roles; all present ones are merged. Keycloak puts realm roles in realm_access/roles. */
    @WithDefault("realm_access/roles")
    List<String> rolesClaims();

    /** Claims whose values become groups. */
    @WithDefault("groups")
    List<String> groupsClaims();

    /** Claims naming the client; the first present one wins. */
    @WithDefault("azp,client_id")
    List<String> clientClaims();

    /** Claims naming the tenant; the first present one wins. */
    @WithDefault("tenant")
    List<String> tenantClaims();

    /** Claims holding granted scopes, space-separated strings or arrays. */
    @WithDefault("scope,scp")
    List<String> scopeClaims();

    /** Bearer tokens this replica has verified, remembered so that each token's signature is checked once. */
    TokenCache tokenCache();

    interface TokenCache {
        /** How many verified tokens to remember (least recently used go first); 0 turns the cache off. */
        @WithDefault("10000")
        int maxEntries();

        /**
         * The most the remembered tokens may take, counted as the length of each token (what its claims take in memory
         * is of that order) and at least this divided by {@code max-entries}: so a few very large tokens (up to the
         * header limit, 20 KiB) cannot hold ten thousand times their size, whoever sends them.
         */
        @WithDefault("16777216")
        long maxBytes();

        /** How long one verification is trusted, never past the token's own {@code exp}. */
        @WithDefault("60s")
        Duration ttl();
    }

    /**
     * While the identity provider's discovery and keys are not loaded (it was down or slow at start-up), how often one
     * attempt to load them is made; requests that need a token checked get 503 meanwhile (and start an attempt if none
     * is under way). Read by the scheduler as {@code quaestor.identity.issuer-retry}.
     */
    @WithDefault("5s")
    Duration issuerRetry();

    /**
     * How often the issuer's key set is read to find keys it has withdrawn ({@link PublishedKeys}); a token signed by
     * one is refused from then on. Read by the scheduler as {@code quaestor.identity.key-check-interval}.
     */
    @WithDefault("60s")
    Duration keyCheckInterval();

    /** Requests to /mcp whose token is refused, per source address, before tokens are even checked. */
    UnauthenticatedLimit unauthenticatedLimit();

    interface UnauthenticatedLimit {
        /**
         * Refused requests an address may have recorded one by one in a burst; past it they are merged into summaries,
         * and its tokens that are not shaped as the issuer's are turned away with 429 before any check.
         */
        @WithDefault("30")
        long capacity();

        /**
         * Records refused requests of every address together may have this replica write in a burst (each address's own
         * records, and each summary an address opens); past it, every address's refusals share one summary per reason
         * and merge window.
         */
        @WithDefault("300")
        long totalCapacity();

        /**
         * The burst refills completely over this period. Requests turned away meanwhile are counted into one
         * ATTEMPT_SUMMARY per address and merge window ({@code quaestor.audit.attempts.merge-window}).
         */
        @WithDefault("60s")
        Duration period();
    }

    /**
     * Allowed ranges: {@code token-cache.max-entries}, {@code max-bytes} and {@code ttl} 0 or more, the unauthenticated
     * capacities at least 1, {@code issuer-retry}, {@code key-check-interval} and {@code unauthenticated-limit.period} more than 0.
     */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.identity.";
        r.atLeast(p + "token-cache.max-entries", tokenCache().maxEntries(), 0)
                .atLeast(p + "token-cache.max-bytes", tokenCache().maxBytes(), 0)
                .notNegative(p + "token-cache.ttl", tokenCache().ttl())
                .positive(p + "issuer-retry", issuerRetry())
                .positive(p + "key-check-interval", keyCheckInterval())
                .atLeast(p + "unauthenticated-limit.capacity", unauthenticatedLimit().capacity(), 1)
                .atLeast(p + "unauthenticated-limit.total-capacity", unauthenticatedLimit().totalCapacity(), 1)
                .positive(p + "unauthenticated-limit.period", unauthenticatedLimit().period());
    }
}
