package dev.quaestor.policy;

import java.time.Instant;

/** What a condition may look at besides the identity: where the request came from and when. */
public record Facts(String sourceIp, Instant time) {

    public static Facts now(String sourceIp) {
        return new Facts(sourceIp, Instant.now());
    }
}
