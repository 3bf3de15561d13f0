package dev.quaestor.policy.whatif;

import dev.quaestor.policy.Cidr;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.ResourcePattern;
import dev.quaestor.policy.Rule;
import dev.quaestor.policy.TimeWindow;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the rules of one policy set name that an audit record may not hold, counted once per set: the scopes their
 * conditions ask for, the groups, clients and tenants they name, their networks and time windows. A replay asks
 * about these alone, and only when a rule naming them could decide.
 */
final class Census {

    final PolicySet set;
    final Map<String, Rule> rules = new HashMap<>();
    final Set<String> scopes = new LinkedHashSet<>();
    final Set<String> groups = new LinkedHashSet<>();
    final Set<String> clients = new LinkedHashSet<>();
    final Set<String> tenants = new LinkedHashSet<>();
    final Set<Cidr> networks = new LinkedHashSet<>();
    final Set<TimeWindow> windows = new LinkedHashSet<>();
    /** Some rule binds {@code ${tenant}}: any tenant may then decide. */
    boolean bindsTenant;

    Census(PolicySet set) {
        this.set = set;
        for (Rule r : set.rules()) {
            rules.put(r.id(), r);
            scopes.addAll(r.when().scopes());
            named(r.subjects().groups(), groups);
            named(r.subjects().clients(), clients);
            named(r.subjects().tenants(), tenants);
            networks.addAll(r.when().sourceCidrs());
            if (r.when().window() != null) {
                windows.add(r.when().window());
            }
            for (ResourcePattern p : r.resources()) {
                bindsTenant |= p.source().contains("${tenant}");
            }
        }
    }

    /** Whether no rule's answer can hang on a scope or a group: the record's caller is then all there is to know. */
    boolean namesNoScopeOrGroup() {
        return scopes.isEmpty() && groups.isEmpty();
    }

    private static void named(Set<String> values, Set<String> into) {
        for (String v : values) {
            if (!v.equals("*")) {
                into.add(v);
            }
        }
    }

    static List<Census> of(List<PolicySet> sets) {
        return sets.stream().map(Census::new).toList();
    }
}
