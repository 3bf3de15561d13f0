package dev.quaestor.policy.whatif;

import java.time.Instant;
import java.util.List;

/**
 * One distinct fact of the recorded history: a caller as the audit record holds it (subject, client, tenant, roles;
 * no scopes, no groups), what it asked (action, canonical URI), from where, in which hour, the decision recorded and
 * the policy revision it was decided under, and how many requests share all of that. {@code examples} are request
 * ids of such requests, up to a few: empty in a facts export, which holds none. A listing of every mount names no URI.
 */
public record Fact(String subject, String client, String tenant, List<String> roles, String action, String uri, String ip,
        Instant hour, String revision, String decision, long count, List<String> examples) {

    /** What a listing is recorded as: judged entry by entry, its entries not recorded. */
    public static final String FILTER = "FILTER";

    public Fact {
        roles = roles == null ? List.of() : List.copyOf(roles);
        examples = examples == null ? List.of() : List.copyOf(examples);
    }

    public boolean listing() {
        return FILTER.equals(decision);
    }

    /** The same fact without its request ids, as a facts export holds it. */
    public Fact withoutExamples() {
        return new Fact(subject, client, tenant, roles, action, uri, ip, hour, revision, decision, count, List.of());
    }
}
