package dev.quaestor.policy;

import dev.quaestor.identity.Identity;

/** A {@code tests:} entry: the decision a policy set must give for one request. */
public record PolicyTestCase(String name, Identity identity, Facts facts, Action action, String uri,
        boolean expectAllow, String file, int line) {
}
