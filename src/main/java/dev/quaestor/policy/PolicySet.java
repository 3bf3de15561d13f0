package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * An immutable, validated set of rules and limits with its revision (SHA-256 over the files),
 * compiled into a {@link RuleIndex}. Semantics: default deny; any matching deny overrides every
 * allow; the order of rules and files does not matter.
 */
public final class PolicySet {

    private final String revision;
    private final List<Rule> rules;
    private final List<RateLimitRule> limits;
    private final List<PolicyTestCase> tests;
    private final List<String> files;
    private final RuleIndex index;

    public PolicySet(String revision, List<Rule> rules, List<RateLimitRule> limits, List<PolicyTestCase> tests,
            List<String> files) {
        this.revision = revision;
        this.rules = List.copyOf(rules);
        this.limits = List.copyOf(limits);
        this.tests = List.copyOf(tests);
        this.files = List.copyOf(files);
        this.index = new RuleIndex(this.rules);
    }

    public String revision() {
        return revision;
    }

    public List<Rule> rules() {
        return rules;
    }

    public List<RateLimitRule> limits() {
        return limits;
    }

    public List<PolicyTestCase> tests() {
        return tests;
    }

    public List<String> files() {
        return files;
    }

    public Decision decide(Identity who, Action action, CanonicalUri uri, Facts facts) {
        return explain(who, action, uri, facts).decision();
    }

    public Explanation explain(Identity who, Action action, CanonicalUri uri, Facts facts) {
        Set<String> allows = new LinkedHashSet<>(2);
        Set<String> denies = new LinkedHashSet<>(2);
        index.candidates(uri, who, e -> {
            Rule r = e.rule();
            Set<String> into = r.effect() == Effect.DENY ? denies : allows;
            if (!into.contains(r.id()) && r.appliesTo(who, action, facts) && e.pattern().matches(uri, who)) {
                into.add(r.id());
            }
        });
        Decision d;
        if (!denies.isEmpty()) {
            d = new Decision(false, List.copyOf(denies), revision);
        } else if (!allows.isEmpty()) {
            d = new Decision(true, List.copyOf(allows), revision);
        } else {
            d = new Decision(false, List.of(), revision);
        }
        return new Explanation(d, List.copyOf(denies), List.copyOf(allows),
                denies.isEmpty() ? List.of() : List.copyOf(allows));
    }

    /**
     * The verdict shared by every URI at or below {@code prefix}, or {@link SubtreeVerdict#MIXED}.
     * Conservative: it says ALLOW_ALL only if an allow covers the whole subtree and no deny could
     * match anywhere in it.
     */
    public SubtreeVerdict subtree(Identity who, Action action, CanonicalUri prefix, Facts facts) {
        boolean[] state = new boolean[3]; // [0] an allow covers all, [1] an allow may match, [2] a deny may match
        boolean[] denyCovers = new boolean[1];
        index.below(prefix, who, (e, covers) -> {
            Rule r = e.rule();
            if (!r.appliesTo(who, action, facts)) {
                return;
            }
            if (r.effect() == Effect.DENY) {
                state[2] = true;
                denyCovers[0] |= covers;
            } else {
                state[1] = true;
                state[0] |= covers;
            }
        });
        if (denyCovers[0] || !state[1]) {
            return SubtreeVerdict.DENY_ALL;
        }
        return state[0] && !state[2] ? SubtreeVerdict.ALLOW_ALL : SubtreeVerdict.MIXED;
    }

    /** True if some URI at or below {@code prefix} may be allowed for the caller. */
    public boolean mayAllowBelow(Identity who, Action action, CanonicalUri prefix, Facts facts) {
        return subtree(who, action, prefix, facts) != SubtreeVerdict.DENY_ALL;
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
}
