package dev.quaestor.pipeline;

import dev.quaestor.ratelimit.RateCheck;

/**
 * A pipeline result with the rate-limit state the response headers report and, for results a client
 * may cache, how ({@code cache} is null for results that are not cacheable); {@code undelivered} records that its
 * answer did not reach the client after all (null where nothing was recorded as served).
 */
public record Served<T>(T result, RateCheck rate, CacheHint cache, Undelivered undelivered) {

    public Served(T result, RateCheck rate) {
        this(result, rate, null, null);
    }
}
