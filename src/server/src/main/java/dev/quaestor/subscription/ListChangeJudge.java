package dev.quaestor.subscription;

import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.SubtreeVerdict;
import dev.quaestor.uri.CanonicalUri;
import java.util.HashMap;
import java.util.List;

/**
 * Whether a stream's holder may hear of a window's list changes, and under which URI its record names it: a
 * {@code list_changed} never says more than a listing would show that holder.
 *
 * <ul>
 *   <li>An entry a provider named counts if the holder may {@code list} that entry (the judgement the listing applies
 *       to each entry it returns).
 *   <li>A change somewhere in a mount (the provider could not name the entry) counts only if the holder may
 *       {@code list} every URI of the mount: an allow covering its whole prefix and no deny that could match anywhere
 *       below it. Being allowed somewhere below the mount is not enough.
 * </ul>
 */
final class ListChangeJudge {

    /** The URI a delivered {@code list_changed} is recorded under, and the rules that allowed it. */
    record Visible(CanonicalUri uri, List<String> rules) {
    }

    private ListChangeJudge() {
    }

    /** The first change of the window this holder may hear of, or null if none. */
    static Visible firstVisible(PolicySet policy, Subscriber who, PendingListChanges.Window window) {
        var facts = who.factsNow();
        // As a listing does: a folder the policy denies as a whole needs no decision per entry.
        var byParent = new HashMap<CanonicalUri, SubtreeVerdict>();
        for (CanonicalUri entry : window.entries()) {
            List<String> segs = entry.segments();
            if (!segs.isEmpty()) {
                var parent = new CanonicalUri(entry.scheme(), entry.authority(), segs.subList(0, segs.size() - 1));
                if (byParent.computeIfAbsent(parent, p -> policy.subtree(who.identity(), Action.LIST, p, facts))
                        == SubtreeVerdict.DENY_ALL) {
                    continue;
                }
            }
            var decision = policy.decide(who.identity(), Action.LIST, entry, facts);
            if (decision.allowed()) {
                return new Visible(entry, decision.rules());
            }
        }
        for (CanonicalUri mount : window.wholeMounts()) {
            if (policy.subtree(who.identity(), Action.LIST, mount, facts) == SubtreeVerdict.ALLOW_ALL) {
                var decision = policy.decide(who.identity(), Action.LIST, mount, facts);
                return new Visible(mount, decision.allowed() ? decision.rules() : List.of());
            }
        }
        return null;
    }
}
