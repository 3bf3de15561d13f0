package dev.quaestor.cases;

/**
 * Whether a case has room for what a change adds (a case holds at most {@link Cases#MAX_ITEMS} items of each kind),
 * asked by a caller that makes several changes at once (an escalation adds a search and a note) before it stores the
 * first, so that none is stored when one would be refused.
 */
public final class CaseRoom {

    private CaseRoom() {
    }

    /** Refuses, as {@link Cases} would, when the case has no room for one more search and one more note. */
    public static void forSearchAndNote(CaseView c) {
        if (c.searches().size() >= Cases.MAX_ITEMS || c.notes().size() >= Cases.MAX_ITEMS) {
            throw CaseRefusal.invalid("a case holds at most " + Cases.MAX_ITEMS + " items of each kind");
        }
    }
}
