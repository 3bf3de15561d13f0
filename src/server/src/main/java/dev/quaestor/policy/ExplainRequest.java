package dev.quaestor.policy;

import dev.quaestor.identity.Identity;
import dev.quaestor.uri.CanonicalUri;
import dev.quaestor.uri.UriCanonicalizer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A "what if" question for the policy: this caller, this action, this URI. Used by the explain
 * endpoint and the offline {@code policy explain} command alike.
 */
public record ExplainRequest(String subject, List<String> roles, List<String> groups, String client, String tenant,
        List<String> scopes, String action, String uri, String sourceIp, Instant time) {

    /**
     * The answer, with the canonical URI and the instant it was judged at (ISO-8601, UTC): the request's {@code time},
     * or the moment of asking when it gives none, since a rule with a time window may answer differently an hour later.
     * {@code namedByNoRule} lists the caller's roles and groups that no rule of the set names ({@code role x},
     * {@code group y}): a misspelt role decides nothing, and a default deny alone would not say why.
     */
    public record Result(String decision, List<String> rules, List<String> matchingAllows,
            List<String> matchingDenies, List<String> overriddenAllows, String canonicalUri, String time, String revision,
            List<String> namedByNoRule) {
    }

    public Result answer(PolicySet set) {
        if (subject == null || subject.isBlank()) {
            throw new IllegalArgumentException("subject is required");
        }
        Action a = Action.fromWireName(action);
        if (a == null) {
            throw new IllegalArgumentException("action must be list, read or subscribe");
        }
        if (sourceIp != null && !Cidr.isAddress(sourceIp)) {
            // A name or a typo would be judged as an unknown address: a different question from the one meant.
            throw new IllegalArgumentException("sourceIp must be an IPv4 or IPv6 address, not '" + sourceIp + "'");
        }
        CanonicalUri canonical = UriCanonicalizer.canonicalize(uri); // InvalidUriException names the problem
        var who = new Identity(subject, client, tenant, set("roles", roles), set("groups", groups), set("scopes", scopes));
        Instant at = time == null ? Instant.now() : time;
        Explanation e = set.explain(who, a, canonical, new Facts(sourceIp, at));
        return new Result(e.decision().allowed() ? "allow" : "deny", e.decision().rules(), e.allowRules(),
                e.denyRules(), e.overriddenAllows(), canonical.toString(), at.toString(), set.revision(),
                namedByNoRule(set, who));
    }

    private static List<String> namedByNoRule(PolicySet set, Identity who) {
        var named = new HashSet<String>();
        var namedGroups = new HashSet<String>();
        for (Rule r : set.rules()) {
            named.addAll(r.subjects().roles());
            namedGroups.addAll(r.subjects().groups());
        }
        var unnamed = new ArrayList<String>();
        who.roles().stream().filter(x -> !named.contains(x)).sorted().forEach(x -> unnamed.add("role " + x));
        who.groups().stream().filter(x -> !namedGroups.contains(x)).sorted().forEach(x -> unnamed.add("group " + x));
        return List.copyOf(unnamed);
    }

    /**
     * The question in one line, for the record of who asked it: every field that decides the answer, the source address
     * and the time only when given (without them the answer is for an unknown address, at the moment of asking).
     */
    public String describe() {
        return "subject=" + subject + " roles=" + roles + " groups=" + groups + " client=" + client + " tenant=" + tenant
                + " scopes=" + scopes + " action=" + action + " uri=" + uri
                + (sourceIp == null ? "" : " sourceIp=" + sourceIp) + (time == null ? "" : " time=" + time);
    }

    private static Set<String> set(String field, List<String> l) {
        if (l == null) {
            return Set.of();
        }
        if (l.stream().anyMatch(java.util.Objects::isNull)) { // not contains(null): List.of's lists throw on it
            throw new IllegalArgumentException(field + " holds null: give each as a string, or leave it out");
        }
        return Set.copyOf(l);
    }
}
