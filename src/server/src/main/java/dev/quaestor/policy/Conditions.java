package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import java.util.List;
import java.util.Set;

/**
 * Optional {@code when:} conditions of a rule; all present ones must hold. A condition that cannot
 * be evaluated (no source address, no time) does not hold.
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

    public boolean hold(Identity who, Facts facts) {
        if (!who.scopes().containsAll(scopes)) {
            return false;
        }
        if (!sourceCidrs.isEmpty()) {
            boolean inside = false;
            for (Cidr c : sourceCidrs) {
                if (c.contains(facts.sourceIp())) {
                    inside = true;
                    break;
                }
            }
            if (!inside) {
                return false;
            }
        }
        return window == null || window.contains(facts.time());
    }
}
