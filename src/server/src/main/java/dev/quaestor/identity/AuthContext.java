package dev.quaestor.identity;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.Collection;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * How a caller authenticated, from its token's {@code acr} and {@code amr} claims, as the audit record
 * keeps it: {@code acr=…;amr=…} (empty values when the provider sends none). It shows multi-factor
 * sign-in in the evidence.
 */
public final class AuthContext {

    private AuthContext() {
    }

    /** {@code acr=…;amr=…}, or null when the caller has no token. */
    public static String of(SecurityIdentity security) {
        if (!(security.getPrincipal() instanceof JsonWebToken token)) {
            return null;
        }
        return "acr=" + text(token.getClaim("acr")) + ";amr=" + text(token.getClaim("amr"));
    }

    private static String text(Object claim) {
        if (claim == null || claim == JsonValue.NULL) {
            return "";
        }
        if (claim instanceof JsonArray a) {
            var parts = new ArrayList<String>();
            for (JsonValue v : a) {
                parts.add(v instanceof JsonString s ? s.getString() : v.toString());
            }
            return String.join(",", parts);
        }
        if (claim instanceof Collection<?> c) {
            return String.join(",", c.stream().map(Object::toString).toList());
        }
        return claim instanceof JsonString s ? s.getString() : claim.toString();
    }
}
