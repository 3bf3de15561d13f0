package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
    private final List<Guard> guards;
    private final List<String> files;
    private final List<Map.Entry<String, String>> sources;
    private final RuleIndex index;
    /** Nothing matched: the same immutable answer every time, so the most common decision allocates nothing. */
    private final Decision defaultDeny;

    public PolicySet(String revision, List<Rule> rules, List<RateLimitRule> limits, List<PolicyTestCase> tests,
            List<String> files) {
        this(revision, rules, limits, tests, List.of(), files, List.of());
    }

    /**
     * As above, with the guards the files declare and the files' text (what the console shows of a revision), the
     * files named by {@code sources}.
     */
    public PolicySet(String revision, List<Rule> rules, List<RateLimitRule> limits, List<PolicyTestCase> tests,
            List<Guard> guards, List<Map.Entry<String, String>> sources) {
        this(revision, rules, limits, tests, guards, sources.stream().map(Map.Entry::getKey).toList(), sources);
    }

    private PolicySet(String revision, List<Rule> rules, List<RateLimitRule> limits, List<PolicyTestCase> tests,
            List<Guard> guards, List<String> files, List<Map.Entry<String, String>> sources) {
        this.sources = List.copyOf(sources);
        this.guards = List.copyOf(guards);
        this.revision = revision;
        this.rules = List.copyOf(rules);
        // Narrow keys first: a caller rejected by their own limit then never spends a token of the
        // tenant's shared bucket, so one noisy caller cannot drain it for everyone else.
        this.limits = limits.stream().sorted(java.util.Comparator.comparingInt(l -> l.key().ordinal())).toList();
        this.tests = List.copyOf(tests);
        this.files = List.copyOf(files);
        this.index = new RuleIndex(this.rules);
        this.defaultDeny = new Decision(false, List.of(), revision);
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

    /** The guards the files declare: what a policy change must not open unseen (what-if checks them). */
    public List<Guard> guards() {
        return guards;
    }

    public List<String> files() {
        return files;
    }

    /** The files this set was read from, (name, text) sorted by name; empty for a set built without them. */
    public List<Map.Entry<String, String>> sources() {
        return sources;
    }

    /**
     * Records in a decision at most this many allowing rules: one suffices to allow, and a caller
     * granted the same URI by hundreds of rules must not cost hundreds of checks. Every matching
     * deny is always found. {@link #explain} lists everything.
     */
    static final int MAX_ALLOWS_RECORDED = 4;

    public Decision decide(Identity who, Action action, CanonicalUri uri, Facts facts) {
        var matches = new Matches(who, action, uri, facts, MAX_ALLOWS_RECORDED);
        index.candidates(uri, who, matches);
        return matches.decision(revision, defaultDeny);
    }

    public Explanation explain(Identity who, Action action, CanonicalUri uri, Facts facts) {
        var matches = new Matches(who, action, uri, facts, Integer.MAX_VALUE);
        index.candidates(uri, who, matches);
        Decision d = matches.decision(revision, defaultDeny);
        List<String> allows = matches.allows == null ? List.of() : matches.allows;
        List<String> denies = matches.denies == null ? List.of() : matches.denies;
        return new Explanation(d, denies, allows, denies.isEmpty() ? List.of() : allows);
    }

    /** Collects the ids of matching rules, each once, allocating nothing when nothing matches. */
    private static final class Matches implements RuleIndex.Sink {
        private final Identity who;
        private final Action action;
        private final CanonicalUri uri;
        private final Facts facts;
        private final int maxAllows;
        List<String> allows;
        List<String> denies;

        Matches(Identity who, Action action, CanonicalUri uri, Facts facts, int maxAllows) {
            this.who = who;
            this.action = action;
            this.uri = uri;
            this.facts = facts;
            this.maxAllows = maxAllows;
        }

        @Override
        public boolean wantsAllows() {
            return allows == null || allows.size() < maxAllows;
        }

        /** Default deny; any deny overrides every allow. */
        Decision decision(String revision, Decision defaultDeny) {
            if (denies != null) {
                return new Decision(false, denies, revision);
            }
            return allows != null ? new Decision(true, allows, revision) : defaultDeny;
        }

        @Override
        public boolean acceptAllows(String[] ruleIds, int flags) {
            int needed = (1 << action.ordinal()) | RuleIndex.Entry.UNCONDITIONAL | RuleIndex.Entry.EXACT;
            if ((flags & needed) != needed) {
                return false;
            }
            for (String id : ruleIds) {
                if (allows == null) {
                    allows = new ArrayList<>(2);
                } else if (allows.size() >= maxAllows) {
                    break;
                } else if (holds(allows, id)) {
                    continue;
                }
                allows.add(id);
            }
            return true;
        }

        @Override
        public void accept(RuleIndex.Entry e) {
            // The index found this entry under one of the caller's principals, so the rule's
            // subjects already match; what is left is action, conditions and (rarely) the pattern.
            List<String> into = e.deny() ? denies : allows;
            String id = e.id();
            if (into != null && ((!e.deny() && into.size() >= maxAllows) || holds(into, id))) {
                return;
            }
            if (!e.covers(action) || (!e.unconditional() && !e.rule().when().hold(who, facts, e.deny()))
                    || (!e.exact() && !e.pattern().matches(uri, who))) {
                return;
            }
            if (into == null) {
                into = new ArrayList<>(2);
                if (e.deny()) {
                    denies = into;
                } else {
                    allows = into;
                }
            }
            into.add(id);
        }

        /**
         * Whether {@code id} is already recorded. Rule ids are unique in a set and every entry of a
         * rule carries the same id object, so identity suffices; comparing contents would read every
         * recorded id's characters, a cache miss each with 100,000 rules.
         */
        private static boolean holds(List<String> ids, String id) {
            for (int i = 0; i < ids.size(); i++) {
                if (ids.get(i) == id) {
                    return true;
                }
            }
            return false;
        }
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
            // A pattern whose placeholder does not bind for the caller (${tenant} without a tenant) matches nothing.
            if (!r.appliesTo(who, action, facts) || !e.pattern().bindsFor(who)) {
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
