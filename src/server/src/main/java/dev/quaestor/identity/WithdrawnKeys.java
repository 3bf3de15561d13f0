package dev.quaestor.identity;

import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Refuses a bearer token signed by a key the issuer has withdrawn ({@link PublishedKeys}), whether just verified or
 * served from the {@link VerifiedTokenCache}: a refused authentication like any other (401, on record as
 * {@code invalid-token}).
 */
@ApplicationScoped
public class WithdrawnKeys implements SecurityIdentityAugmentor {

    /** The identity attribute that carries the id of the key that signed its token, also on a cached identity. */
    static final String KEY_ID = "quaestor.identity.key-id";

    private final PublishedKeys keys;

    WithdrawnKeys(PublishedKeys keys) {
        this.keys = keys;
    }

    /** After {@link UnmappableTokens}, before the rest. */
    @Override
    public int priority() {
        return Integer.MAX_VALUE - 2;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        if (identity.isAnonymous()) {
            return Uni.createFrom().item(identity);
        }
        Object carried = identity.getAttribute(KEY_ID);
        AccessTokenCredential credential = identity.getCredential(AccessTokenCredential.class);
        String keyId = carried instanceof String k ? k : credential == null ? null : of(credential.getToken());
        return keys.withdrawn(keyId)
                ? Uni.createFrom().failure(new AuthenticationFailedException(new RefusedTokenReason.OwnCheck("signing key withdrawn")))
                : Uni.createFrom().item(identity);
    }

    /** The {@code kid} in a compact JWS's header; null if none or not a JWS. */
    static String of(String token) {
        if (token == null) {
            return null;
        }
        int dot = token.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        try {
            var header = new JsonObject(new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8));
            return header.getValue("kid") instanceof String kid ? kid : null;
        } catch (RuntimeException notAHeader) {
            return null;
        }
    }
}
