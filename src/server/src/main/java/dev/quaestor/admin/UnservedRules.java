package dev.quaestor.admin;

import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.provider.mounts.MountTable;
import dev.quaestor.uri.CanonicalUri;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of a policy set that apply to nothing this server serves: none of their resource patterns could match a
 * URI under any mount (a misspelt scheme, {@code files:///docs/**}; a folder no mount holds; a mount since removed).
 * Such a rule is valid, and may be meant for another deployment of the same files, so it is not refused; but a deny
 * that protects nothing, or an allow that opens nothing, is what an administrator wants to hear about.
 */
@ApplicationScoped
public class UnservedRules {

    private final MountTable mounts;

    UnservedRules(MountTable mounts) {
        this.mounts = mounts;
    }

    /** One line per such rule: {@code file:line: rule 'id' (effect) names only …, which no mount serves}. */
    public List<String> of(PolicySet set) {
        return of(set, mounts.all().stream().map(m -> m.mount().prefix()).toList());
    }

    /** As {@link #of(PolicySet)}, for mounts at {@code prefixes}. */
    static List<String> of(PolicySet set, List<CanonicalUri> prefixes) {
        var out = new ArrayList<String>();
        for (Rule r : set.rules()) {
            if (r.resources().stream().noneMatch(p -> prefixes.stream().anyMatch(p::couldMatchWithin))) {
                out.add(r.origin() + ": rule '" + r.id() + "' (" + r.effect().name().toLowerCase(java.util.Locale.ROOT)
                        + ") names only " + String.join(", ", r.resources().stream().map(ResourcePattern::source).toList())
                        + ", which no mount serves");
            }
        }
        return out;
    }
}
