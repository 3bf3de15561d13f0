package dev.quaestor.pipeline;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.ratelimit.RateCheck;
import dev.quaestor.uri.CanonicalUri;

/**
 * The rate limit as a {@link Trail} asks it ({@link dev.quaestor.ratelimit.RateLimiter#check}): spends {@code tokens}
 * of every limit of {@code policy} that applies; throws
 * {@link dev.quaestor.ratelimit.RateLimitUnavailableException} when a fail-closed limit cannot answer.
 */
@FunctionalInterface
interface RateLimits {

    RateCheck check(PolicySet policy, Identity who, String sourceIp, Action action, CanonicalUri uri, int tokens);
}
