package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import java.util.List;
import java.util.Set;

/**
 * Optional {@code when:} conditions of a rule; all present ones must hold. A condition on a fact that is not known
 * (no source address, or one that is not an address; no time) holds for a deny and not for an allow: an unknown fact
 * never opens access, and never lets a request past a deny.
 *
 * @param scopes every one must be granted to the token
 * @param sourceCidrs the request must come from one of these networks (empty = anywhere)
 * @param window the request must fall in this window (null = any time)
 */
public record Conditions(Set<String> scopes, List<Cidr> sourceCidrs, TimeWindow window) {

    public static final Conditions NONE = new Conditions(Set.of(), List.of(), null);

    public Conditions {
        scopes = Set.copyOf(scopes);
        sourceCidrs = List.copyOf(sourceCidrs);
    }

    /** Whether the conditions hold for a rule of this kind ({@code deny}: a deny rule). */
    public boolean hold(Identity who, Facts facts, boolean deny) {
        if (!who.scopes().containsAll(scopes)) {
            return false;
        }
        if (!sourceCidrs.isEmpty()) {
            if (!Cidr.isAddress(facts.sourceIp())) {
                if (!deny) {
                    return false;
                }
            } else if (sourceCidrs.stream().noneMatch(c -> c.contains(facts.sourceIp()))) {
                return false;
            }
        }
        if (window == null) {
            return true;
        }
        return facts.time() == null ? deny : window.contains(facts.time());
    }
}
