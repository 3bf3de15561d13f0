package dev.quaestor.pipeline;

import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.policy.Action;
import dev.quaestor.policy.Decision;
import dev.quaestor.uri.CanonicalUri;
import java.util.ArrayList;
import java.util.Map;

/**
 * The serve step of {@code subscriptions/listen}: each requested URI judged with action {@code subscribe}, and
 * granted only if allowed and within a mount, each its own {@code DECISION}; the list-change filter granted if the
 * caller may subscribe below some mount. Every record is committed before the grant is returned, since the
 * acknowledgement discloses it.
 */
final class ListenGrants {

    private final ContentSources sources;

    ListenGrants(ContentSources sources) {
        this.sources = sources;
    }

    Served<ListenGrant> grant(Trail trail, Map<String, CanonicalUri> uris, boolean listChanged) {
        RequestContext ctx = trail.context();
        var pending = new ArrayList<PendingCommit>();
        var granted = new ArrayList<String>();
        try (var stage = trail.stage("policy")) {
            for (var e : uris.entrySet()) {
                Decision d = trail.policy().decide(ctx.identity(), Action.SUBSCRIBE, e.getValue(), ctx.facts());
                boolean mounted = sources.resolve(e.getValue()).isPresent();
                if (d.allowed() && mounted) {
                    granted.add(e.getKey());
                }
                pending.add(trail.decided(e.getKey(), Verdict.of(d), d.allowed() ? (mounted ? null : "not-mounted")
                        : "not-granted", null));
            }
            stage.outcome(granted.size() == uris.size() ? "allow" : "filter");
        }
        boolean listGranted = false;
        if (listChanged) {
            for (var m : sources.all()) {
                if (trail.policy().mayAllowBelow(ctx.identity(), Action.SUBSCRIBE, m.mount().prefix(), ctx.facts())) {
                    listGranted = true;
                    break;
                }
            }
            pending.add(trail.decided(null, Verdict.ofSubtree(listGranted), listGranted ? null : "not-granted",
                    "resourcesListChanged"));
        }
        pending.forEach(Trail::await);
        String summary = "granted " + granted.size() + " of " + uris.size() + " resource subscriptions"
                + (listChanged ? "; resourcesListChanged " + (listGranted ? "granted" : "not granted") : "");
        trail.served(Outcome.ok().items(granted.size()).detail(summary));
        return trail.result(new ListenGrant(granted, listGranted));
    }
}
