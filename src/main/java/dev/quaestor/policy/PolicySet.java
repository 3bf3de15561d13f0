package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.List;

/**
 * An immutable, validated set of rules and limits with its revision (SHA-256 over the files).
 * Semantics: default deny; any matching deny overrides every allow; order does not matter.
 */
public record PolicySet(String revision, List<Rule> rules, List<RateLimitRule> limits,
        List<PolicyTestCase> tests, List<String> files) {

    public PolicySet {
        rules = List.copyOf(rules);
        limits = List.copyOf(limits);
        tests = List.copyOf(tests);
        files = List.copyOf(files);
    }

    public Decision decide(Identity who, Action action, CanonicalUri uri) {
        List<String> allows = null;
        List<String> denies = null;
        for (Rule r : rules) {
            if (r.matches(who, action, uri)) {
                if (r.effect() == Effect.DENY) {
                    denies = add(denies, r.id());
                } else {
                    allows = add(allows, r.id());
                }
            }
        }
        if (denies != null) {
            return new Decision(false, denies, revision);
        }
        return allows != null ? new Decision(true, allows, revision) : new Decision(false, List.of(), revision);
    }

    /**
     * True if some URI at or below {@code prefix} may be allowed for the caller. Deny rules are not
     * considered: this only hides what is certainly out of reach (templates, list roots).
     */
    public boolean mayAllowBelow(Identity who, Action action, CanonicalUri prefix) {
        for (Rule r : rules) {
            if (r.effect() == Effect.ALLOW && r.appliesTo(who, action)) {
                for (ResourcePattern p : r.resources()) {
                    if (p.mayMatchBelow(prefix, who)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    public List<RateLimitRule> limitsFor(Identity who, Action action, CanonicalUri uri) {
        List<RateLimitRule> out = new ArrayList<>(2);
        for (RateLimitRule l : limits) {
            if (l.appliesTo(who, action, uri)) {
                out.add(l);
            }
        }
        return out;
    }

    private static List<String> add(List<String> list, String id) {
        List<String> l = list == null ? new ArrayList<>(2) : list;
        l.add(id);
        return l;
    }
}
