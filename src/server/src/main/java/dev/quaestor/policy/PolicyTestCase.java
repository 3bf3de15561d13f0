package dev.quaestor.policy;

import dev.quaestor.identity.Identity;

/**
 * A {@code tests:} entry: the decision a policy set must give for one request. {@code facts().time()} is null when the
 * entry gives no time, which only a set without time windows allows ({@link UntimedTests}): the time decides nothing there.
 */
public record PolicyTestCase(String name, Identity identity, Facts facts, Action action, String uri,
        boolean expectAllow, String file, int line) {
}
