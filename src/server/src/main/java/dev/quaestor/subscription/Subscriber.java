package dev.quaestor.subscription;

import dev.quaestor.identity.Identity;
import dev.quaestor.policy.Facts;
import java.time.Instant;

/**
 * Who receives notifications on a stream or for a subscription, as much as the policy needs to
 * judge them again at send time: the identity from the verified token (never the token) and the
 * address the request came from.
 */
public record Subscriber(Identity identity, String sourceIp) {

    /** The facts for a decision taken now. */
    public Facts factsNow() {
        return new Facts(sourceIp, Instant.now());
    }
}
