package dev.quaestor.policy.whatif;

import dev.quaestor.policy.Action;
import dev.quaestor.policy.Decision;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.whatif.Replayed.Change;
import dev.quaestor.policy.whatif.Replayed.Check;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.InvalidUriException;
import dev.quaestor.uri.UriCanonicalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Replays recorded facts through the current and the proposed policy set with the engine that serves requests
 * ({@link PolicySet#decide}), and through the revision each was recorded under, to check that it gives the answer
 * recorded. A fact whose deciding rules depend on something its record lacks is judged every way it could have been
 * ({@link Unknowns}): one answer pair throughout is judged, several are not.
 */
public final class Replay {

    private final Census current;
    private final Census proposed;
    private final Function<String, PolicySet> revisions;
    private final Map<String, java.util.Optional<Census>> recorded = new ConcurrentHashMap<>();

    /**
     * @param revisions the set of a revision by its id, or null when its files are not at hand
     */
    public Replay(PolicySet current, PolicySet proposed, Function<String, PolicySet> revisions) {
        this.current = new Census(current);
        this.proposed = new Census(proposed);
        this.revisions = revisions;
    }

    public PolicySet current() {
        return current.set;
    }

    public PolicySet proposed() {
        return proposed.set;
    }

    public Replayed replay(Fact f) {
        if (f.listing()) {
            return new Replayed(f, Change.LISTING, List.of(), List.of(), List.of(), false, Check.NOT_CHECKED);
        }
        Action action = Action.fromWireName(f.action());
        CanonicalUri uri = canonical(f.uri());
        if (action == null || uri == null) {
            return new Replayed(f, Change.NOT_REPLAYABLE, List.of(), List.of(), List.of(), false, Check.NOT_CHECKED);
        }
        Census then = recordedUnder(f.revision());
        var sets = new ArrayList<Census>(3);
        sets.add(current);
        sets.add(proposed);
        if (then != null && then != current && then != proposed) {
            sets.add(then);
        }
        Unknowns unknowns = Unknowns.of(f, action, uri, sets, instants(f.hour(), sets));
        if (unknowns.tooMany()) {
            return new Replayed(f, Change.NOT_JUDGED, List.of(), List.of(), unknowns.missing(), true,
                    then == null ? Check.NO_REVISION : Check.NOT_CHECKED);
        }
        // Every way the fact could have been, and those of them its recorded decision allows: when its revision is at
        // hand, a way that revision would have decided otherwise is not how it was, and is left out.
        var ways = new Ways();
        var recordedWays = new Ways();
        boolean allowedAsRecorded = "ALLOW".equals(f.decision());
        Decision known = unknowns.decided(current);
        Decision knownAfter = unknowns.decided(proposed);
        unknowns.forEach((who, facts) -> {
            Decision before = known != null ? known : current.set.decide(who, action, uri, facts);
            Decision after = knownAfter != null ? knownAfter : proposed.set.decide(who, action, uri, facts);
            ways.add(before, after);
            if (then != null) {
                Decision d = then == current ? before : then == proposed ? after
                        : unknowns.decided(then) != null ? unknowns.decided(then) : then.set.decide(who, action, uri, facts);
                if (d.allowed() == allowedAsRecorded) {
                    recordedWays.add(before, after);
                }
            }
        });
        Check check = then == null ? Check.NO_REVISION : recordedWays.any() ? Check.REPRODUCED : Check.MISMATCH;
        // A mismatch (the revision never gives the recorded answer) leaves nothing to narrow by: every way is shown.
        Ways judged = recordedWays.any() ? recordedWays : ways;
        return new Replayed(f, judged.change(), judged.rulesBefore, judged.rulesAfter,
                judged.change() == Change.NOT_JUDGED ? unknowns.missing() : List.of(), judged.gains, check);
    }

    /** What the ways a fact could have been came to. */
    private static final class Ways {
        boolean same;
        boolean gains;
        boolean loses;
        List<String> rulesBefore;
        List<String> rulesAfter;

        void add(Decision before, Decision after) {
            if (rulesBefore == null) {
                rulesBefore = before.rules();
                rulesAfter = after.rules();
            }
            if (before.allowed() == after.allowed()) {
                same = true;
            } else if (after.allowed()) {
                gains = true;
            } else {
                loses = true;
            }
        }

        boolean any() {
            return rulesBefore != null;
        }

        Change change() {
            int kinds = (same ? 1 : 0) + (gains ? 1 : 0) + (loses ? 1 : 0);
            if (kinds > 1) {
                return Change.NOT_JUDGED;
            }
            return gains ? Change.GAINED : loses ? Change.LOST : Change.UNCHANGED;
        }
    }

    /** The hour's window edges, worked out once per hour and set of sets (facts share a few hundred hours). */
    private List<java.time.Instant> instants(java.time.Instant hour, List<Census> sets) {
        return hours.computeIfAbsent(new HourOf(hour, sets.size() > 2 ? sets.get(2).set.revision() : null),
                k -> Unknowns.instants(hour, sets));
    }

    private record HourOf(java.time.Instant hour, String recorded) {
    }

    private final Map<HourOf, List<java.time.Instant>> hours = new ConcurrentHashMap<>();

    private Census recordedUnder(String revision) {
        if (revision == null) {
            return null;
        }
        if (revision.equals(current.set.revision())) {
            return current;
        }
        if (revision.equals(proposed.set.revision())) {
            return proposed;
        }
        return recorded.computeIfAbsent(revision, r -> java.util.Optional.ofNullable(revisions.apply(r)).map(Census::new))
                .orElse(null);
    }

    /** The canonical URI the record names, or null if it names one the engine never judged (refused before it). */
    private static CanonicalUri canonical(String uri) {
        if (uri == null) {
            return null;
        }
        try {
            CanonicalUri c = UriCanonicalizer.canonicalize(uri);
            return c.toString().equals(uri) ? c : null;
        } catch (InvalidUriException e) {
            return null;
        }
    }
}
