package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.List;
import java.util.Set;

/**
 * A line a policy change must not cross unseen: what-if fails when a change would let someone do one of
 * {@code actions} on a URI under {@code resources} that they could not do before. A guard decides nothing for a
 * request; it only judges changes to the rules. Its patterns bind no placeholders.
 */
public record Guard(String id, List<ResourcePattern> resources, Set<Action> actions, String origin) {

    /** Guard patterns name no caller, so they are matched as nobody's. */
    private static final Identity NOBODY = new Identity("", null, null, Set.of(), Set.of(), Set.of());

    public Guard {
        resources = List.copyOf(resources);
        actions = Set.copyOf(actions);
    }

    public boolean covers(Action action, CanonicalUri uri) {
        if (!actions.contains(action)) {
            return false;
        }
        for (ResourcePattern p : resources) {
            if (p.matches(uri, NOBODY)) {
                return true;
            }
        }
        return false;
    }
}
