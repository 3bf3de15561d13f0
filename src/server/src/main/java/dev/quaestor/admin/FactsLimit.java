package dev.quaestor.admin;

import dev.quaestor.policy.whatif.Fact;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The facts of a window gathered whole, as the facts file and what-if need them, at most
 * {@code quaestor.audit.facts-limit} of them: past it gathering stops at once, so a wide window costs the limit, not
 * the log.
 */
final class FactsLimit {

    /** More facts in the window than may be held; nothing gathered is kept. */
    static final class Exceeded extends RuntimeException {
        Exceeded(int limit) {
            super("more than " + limit + " distinct facts in this window (quaestor.audit.facts-limit): narrow it with"
                    + " from and to", null, false, false);
        }
    }

    private final int limit;

    FactsLimit(int limit) {
        this.limit = limit;
    }

    List<Fact> gather(RecordedHistory history, Instant from, Instant to) {
        var facts = new ArrayList<Fact>();
        history.facts(from, to, f -> {
            if (facts.size() == limit) {
                throw new Exceeded(limit);
            }
            facts.add(f);
        });
        return facts;
    }
}
