package dev.quaestor.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A set's verdict on itself must not depend on when it is loaded. A test without a {@code time} has no instant to be
 * judged at, so it is allowed only in a set where no rule has a time window: there the time decides nothing. In a set
 * with a window, each test must give its time, or the same files would load at ten and be refused at six.
 */
final class UntimedTests {

    private UntimedTests() {
    }

    /** The tests without a time, when a rule of the set has a time window: they cannot be judged. */
    static List<PolicyTestCase> of(List<Rule> rules, List<PolicyTestCase> tests) {
        if (rules.stream().noneMatch(r -> r.when().window() != null)) {
            return List.of();
        }
        return tests.stream().filter(t -> t.facts().time() == null).toList();
    }

    /** An error for each of those tests ({@link #of}), naming a rule with a time window. */
    static List<PolicyError> errors(List<Rule> rules, List<PolicyTestCase> untimed) {
        var out = new ArrayList<PolicyError>();
        Rule windowed = rules.stream().filter(r -> r.when().window() != null).findFirst().orElse(null);
        if (windowed == null) {
            return out;
        }
        for (PolicyTestCase t : untimed) {
            out.add(new PolicyError(t.file(), t.line(), "test '" + t.name() + "' needs a time: the set has time windows"
                    + " (rule '" + windowed.id() + "' at " + windowed.origin() + "), so a test without one would pass or"
                    + " fail by the hour it is loaded at"));
        }
        return out;
    }
}
