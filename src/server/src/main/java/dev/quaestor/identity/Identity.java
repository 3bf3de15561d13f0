package dev.quaestor.identity;

import java.util.Set;

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
}
