package dev.quaestor.pipeline;

import dev.quaestor.ratelimit.RateCheck;

/** A pipeline result with the rate-limit state the response headers report. */
public record Served<T>(T result, RateCheck rate) {
}
