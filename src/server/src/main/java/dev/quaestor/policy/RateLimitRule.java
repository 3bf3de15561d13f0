package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * A {@code limits:} entry: a token bucket of {@code capacity} refilled by {@code refillTokens} every
 * {@code refillPeriod}, one bucket per value of {@code key}, for requests whose URI matches one of
 * {@code resources} (an action-level request such as a list has no URI and matches {@code **} only).
 *
 * @param shadow when true the limit is measured, logged and audited but never rejects
 * @param fail what to do when the bucket store (Redis) cannot answer: reject (closed) or admit and audit (open)
 */
public record RateLimitRule(String id, Key key, long capacity, long refillTokens, Duration refillPeriod,
        List<ResourcePattern> resources, Set<Action> actions, boolean shadow, Fail fail, String origin) {

    /** In the order limits are checked: narrowest first, the tenant's shared bucket last. */
    public enum Key { SUBJECT, CLIENT, IP, TENANT }

    public enum Fail { CLOSED, OPEN }

    /**
     * What makes two limits the same bucket: a reload that leaves these unchanged keeps the
     * bucket (and its spent tokens); any change to them starts a fresh one.
     */
    public String bucketDefinition() {
        return id + '|' + key + '|' + capacity + '/' + refillTokens + '/' + refillPeriod.toMillis();
    }

    public RateLimitRule {
        resources = List.copyOf(resources);
        actions = Set.copyOf(actions);
    }

    public boolean appliesTo(Identity who, Action action, CanonicalUri uri) {
        if (!actions.contains(action)) {
            return false;
        }
        for (ResourcePattern p : resources) {
            if (uri == null ? p.source().equals("**") : p.matches(uri, who)) {
                return true;
            }
        }
        return false;
    }
}
