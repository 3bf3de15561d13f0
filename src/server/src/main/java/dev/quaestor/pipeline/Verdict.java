package dev.quaestor.pipeline;

import dev.quaestor.policy.Decision;
import java.util.List;

/**
 * What a request's {@code DECISION} record says was decided: {@code ALLOW} or {@code DENY} by the deciding
 * {@code rules}, or {@code FILTER} for a request judged entry by entry.
 */
record Verdict(String name, List<String> rules) {

    /** Allowed without a rule: a request that only narrows what is disclosed ({@code resources/unsubscribe}). */
    static final Verdict ALLOW = new Verdict("ALLOW", List.of());
    /** Refused before it was judged, or with nothing to judge it by. */
    static final Verdict DENY = new Verdict("DENY", List.of());
    /** Judged per entry (a listing, a completion, a listen): each entry is shown only if the caller may see it. */
    static final Verdict FILTER = new Verdict("FILTER", List.of());

    Verdict {
        rules = List.copyOf(rules);
    }

    static Verdict of(Decision decision) {
        return new Verdict(decision.allowed() ? "ALLOW" : "DENY", decision.rules());
    }

    boolean allowed() {
        return !name.equals("DENY");
    }
}
