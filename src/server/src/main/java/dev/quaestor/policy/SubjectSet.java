package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import java.util.Collection;
import java.util.Set;

/**
 * Who a rule is about. The rule applies if any listed value matches the caller; {@code "*"} in any
 * list means any authenticated caller.
 */
public record SubjectSet(Set<String> roles, Set<String> groups, Set<String> subjects, Set<String> clients,
        Set<String> tenants) {

    public SubjectSet {
        roles = Set.copyOf(roles);
        groups = Set.copyOf(groups);
        subjects = Set.copyOf(subjects);
        clients = Set.copyOf(clients);
        tenants = Set.copyOf(tenants);
    }

    public boolean isEmpty() {
        return roles.isEmpty() && groups.isEmpty() && subjects.isEmpty() && clients.isEmpty() && tenants.isEmpty();
    }

    public boolean matches(Identity who) {
        return anyOf(roles, who.roles()) || anyOf(groups, who.groups()) || one(subjects, who.subject())
                || one(clients, who.client()) || one(tenants, who.tenant());
    }

    private static boolean anyOf(Set<String> wanted, Collection<String> have) {
        if (wanted.isEmpty()) {
            return false;
        }
        if (wanted.contains("*")) {
            return true;
        }
        for (String h : have) {
            if (wanted.contains(h)) {
                return true;
            }
        }
        return false;
    }

    private static boolean one(Set<String> wanted, String have) {
        return !wanted.isEmpty() && (wanted.contains("*") || (have != null && wanted.contains(have)));
    }
}
