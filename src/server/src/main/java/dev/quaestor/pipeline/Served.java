package dev.quaestor.pipeline;

import dev.quaestor.ratelimit.RateCheck;

/**
 * A pipeline result with the rate-limit state the response headers report and, for results a client
 * may cache, how ({@code cache} is null for results that are not cacheable).
 */
public record Served<T>(T result, RateCheck rate, CacheHint cache) {

    public Served(T result, RateCheck rate) {
        this(result, rate, null);
    }
}
