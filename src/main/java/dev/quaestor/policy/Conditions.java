package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import java.util.Set;

/** Optional {@code when:} conditions of a rule; all must hold. */
public record Conditions(Set<String> scopes) {

    public static final Conditions NONE = new Conditions(Set.of());

    public Conditions {
        scopes = Set.copyOf(scopes);
    }

    public boolean hold(Identity who) {
        return who.scopes().containsAll(scopes);
    }
}
