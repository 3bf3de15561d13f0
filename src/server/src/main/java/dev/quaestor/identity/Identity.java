package dev.quaestor.identity;

import dev.quaestor.audit.record.Caller;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Who is calling, as established from a verified bearer token. Everything downstream (policy,
 * audit, rate limits) reads the caller from here and never from the raw token.
 *
 * @param subject the token subject ({@code sub} by default)
 * @param client the OAuth client that obtained the token ({@code azp} or {@code client_id}); may be null
 * @param tenant the caller's tenant; may be null
 */
public record Identity(String subject, String client, String tenant, Set<String> roles, Set<String> groups,
        Set<String> scopes) {

    public Identity {
        roles = Set.copyOf(roles);
        groups = Set.copyOf(groups);
        scopes = Set.copyOf(scopes);
    }

    /**
     * This identity as the audit log records it, from {@code sourceIp} with {@code userAgent}: the one mapping of an
     * identity to a {@link Caller}. Roles are sorted, so one caller's records name them alike whatever the token's order.
     * Groups and scopes are not recorded.
     */
    public Caller caller(String sourceIp, String userAgent) {
        return new Caller(subject, client, tenant, List.copyOf(new TreeSet<>(roles)), sourceIp, userAgent, null, null,
                null, null);
    }
}
