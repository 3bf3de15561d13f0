package dev.quaestor.pipeline;

import dev.quaestor.policy.Action;
import dev.quaestor.policy.PolicySet;
import dev.quaestor.policy.SubtreeVerdict;
import dev.quaestor.provider.ResourceEntry;
import dev.quaestor.uri.CanonicalUri;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Decides which listed entries a caller may see. Entries come grouped by parent, so the verdict for
 * each parent is asked once: when the policy allows or denies that whole subtree, its entries
 * need no decision of their own, and only mixed subtrees are judged entry by entry.
 */
final class ListingFilter implements Predicate<ResourceEntry> {

    private final PolicySet policy;
    private final RequestContext ctx;
    private final Map<CanonicalUri, SubtreeVerdict> byParent = new HashMap<>();

    ListingFilter(PolicySet policy, RequestContext ctx) {
        this.policy = policy;
        this.ctx = ctx;
    }

    @Override
    public boolean test(ResourceEntry entry) {
        CanonicalUri uri = entry.uri();
        List<String> segs = uri.segments();
        if (!segs.isEmpty()) {
            var parent = new CanonicalUri(uri.scheme(), uri.authority(), segs.subList(0, segs.size() - 1));
            SubtreeVerdict v = byParent.computeIfAbsent(parent,
                    p -> policy.subtree(ctx.identity(), Action.LIST, p, ctx.facts()));
            if (v != SubtreeVerdict.MIXED) {
                return v == SubtreeVerdict.ALLOW_ALL;
            }
        }
        return policy.decide(ctx.identity(), Action.LIST, uri, ctx.facts()).allowed();
    }
}
