package dev.quaestor.pipeline;

/**
 * How a result may be cached by the client that received it: its scope and how long it stays fresh.
 * Resource results (content, listings, templates) are always {@link #PRIVATE}: a {@code public} result
 * may be served by a shared cache to anyone, the unauthenticated included, without a policy decision
 * or an audit record, which a governed server never allows for content.
 *
 * @param ttlMs milliseconds the result may be reused; 0 means ask again every time
 */
public record CacheHint(String scope, long ttlMs) {

    public static final String PRIVATE = "private";
    public static final String PUBLIC = "public";

    public CacheHint {
        if (!PRIVATE.equals(scope) && !PUBLIC.equals(scope)) {
            throw new IllegalArgumentException("cache scope must be private or public, not " + scope);
        }
        if (ttlMs < 0) {
            throw new IllegalArgumentException("ttlMs must be 0 or more");
        }
    }

    /** A result only the caller's own authorization context may reuse. */
    public static CacheHint privateFor(long ttlMs) {
        return new CacheHint(PRIVATE, ttlMs);
    }
}
