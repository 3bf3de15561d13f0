package dev.quaestor.policy.whatif;

import java.util.List;

/**
 * The facts of an export that a window selects. A selection of no request is refused: a replay of nothing crosses no
 * guard, and a gate that judged nothing must not pass a change as if it had judged it (a {@code --since 1h} run
 * against last month's export would).
 */
public final class SelectedFacts {

    /** Nothing to judge: the export holds no request, or the window selects none of them. */
    public static final class NothingToJudge extends IllegalArgumentException {
        public NothingToJudge(String message) {
            super(message);
        }
    }

    private SelectedFacts() {
    }

    /**
     * @param export the export's own window, from its header
     * @param file the export's name, for the message
     */
    public static List<Fact> of(List<Fact> facts, Window window, Window export, String file) {
        if (facts.isEmpty()) {
            throw new NothingToJudge(file + " holds no request (its window " + export.describe()
                    + "): a replay of nothing would pass any change");
        }
        if (!window.overlaps(export)) {
            throw new NothingToJudge("the window " + window.describe() + " does not overlap the window of " + file + ", "
                    + export.describe() + " (its header): nothing would be judged; give --from/--to within it, or a fresh export");
        }
        List<Fact> selected = facts.stream().filter(window::holds).toList();
        if (selected.isEmpty()) {
            throw new NothingToJudge("the window " + window.describe() + " selects no request of " + file + " ("
                    + requests(facts) + " requests over " + export.describe() + "): nothing would be judged");
        }
        return selected;
    }

    private static long requests(List<Fact> facts) {
        return facts.stream().mapToLong(Fact::count).sum();
    }
}
