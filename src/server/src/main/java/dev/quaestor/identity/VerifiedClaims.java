package dev.quaestor.identity;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The principal of an identity in the {@link VerifiedTokenCache}: a verified token's name and claims, as the token's
 * own principal gave them, without the token. quarkus-oidc's principal keeps the token it was read from (as its
 * {@code raw_token} claim, and through its credential); this one keeps what the server reads (subject, client, roles,
 * {@code exp}, {@code sid}, {@code jti}, {@code acr}, {@code amr} and the rest), so a cached identity holds nothing a
 * caller could present again. {@link #getRawToken()} answers null.
 */
final class VerifiedClaims implements JsonWebToken {

    private final String name;
    private final Map<String, Object> claims;

    VerifiedClaims(JsonWebToken token) {
        this.name = token.getName();
        var copy = new LinkedHashMap<String, Object>();
        for (String claim : token.getClaimNames()) {
            Object value = claim.equals(Claims.raw_token.name()) ? null : token.getClaim(claim);
            if (value != null) {
                copy.put(claim, value);
            }
        }
        this.claims = Collections.unmodifiableMap(copy);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public Set<String> getClaimNames() {
        return claims.keySet();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getClaim(String claimName) {
        return (T) claims.get(claimName);
    }

    @Override
    public String toString() {
        return "VerifiedClaims[name=" + name + ", claims=" + claims.keySet() + "]";
    }
}
