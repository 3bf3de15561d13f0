package dev.quaestor.policy;

import java.util.List;

/**
 * The verdict for one (identity, action, URI). {@code rules} are the deciding rule ids: the
 * matching deny rules when denied by a rule, the matching allow rules when allowed, and empty
 * when nothing matched (default deny).
 */
public record Decision(boolean allowed, List<String> rules, String revision) {

    public Decision {
        rules = List.copyOf(rules);
    }
}
