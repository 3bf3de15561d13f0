package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.List;
import java.util.Set;

/** One compiled policy rule. {@code origin} is "file:line" for messages and explain output. */
public record Rule(String id, Effect effect, Set<Action> actions, List<ResourcePattern> resources,
        SubjectSet subjects, Conditions when, String origin) {

    public Rule {
        actions = Set.copyOf(actions);
        resources = List.copyOf(resources);
    }

    /** True if this rule applies to the caller, action and circumstances, regardless of URI. */
    public boolean appliesTo(Identity who, Action action, Facts facts) {
        return actions.contains(action) && subjects.matches(who) && when.hold(who, facts, effect == Effect.DENY);
    }

    public boolean matches(Identity who, Action action, CanonicalUri uri, Facts facts) {
        if (!appliesTo(who, action, facts)) {
            return false;
        }
        for (ResourcePattern p : resources) {
            if (p.matches(uri, who)) {
                return true;
            }
        }
        return false;
    }
}
