package dev.quaestor.pipeline;

import dev.quaestor.policy.Decision;
import java.util.List;

/**
 * What a request's {@code DECISION} record says was decided: {@code ALLOW} or {@code DENY} by the deciding
 * {@code rules}, or {@code FILTER} for a request judged entry by entry; {@code judged} when the policy was asked.
 */
record Verdict(String name, List<String> rules, boolean judged) {

    /** Allowed without a rule: a request that only narrows what is disclosed ({@code resources/unsubscribe}). */
    static final Verdict ALLOW = new Verdict("ALLOW", List.of(), false);
    /** Refused before it was judged, or with nothing to judge it by. */
    static final Verdict DENY = new Verdict("DENY", List.of(), false);
    /**
     * Judged per entry (a listing, a completion, a listen): each entry is shown only if the caller may see it. Not yet
     * judged when the rate limit is asked: the entries are judged once the request has paid.
     */
    static final Verdict FILTER = new Verdict("FILTER", List.of(), false);

    Verdict {
        rules = List.copyOf(rules);
    }

    static Verdict of(Decision decision) {
        return new Verdict(decision.allowed() ? "ALLOW" : "DENY", decision.rules(), true);
    }

    /** The policy's answer where it names no rule (a grant judged over a whole subtree). */
    static Verdict ofSubtree(boolean allowed) {
        return new Verdict(allowed ? "ALLOW" : "DENY", List.of(), true);
    }

    boolean allowed() {
        return !name.equals("DENY");
    }
}
