package dev.quaestor.identity;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads a verified token's claims: the {@link Identity} they map to according to {@link IdentityConfig}, when the
 * token expires, and what follows its client across requests.
 */
@ApplicationScoped
public class IdentityMapper {

    /** Attribute under which a cached {@link io.quarkus.security.identity.SecurityIdentity} carries its mapped caller. */
    static final String MAPPED = Identity.class.getName();

    private final IdentityConfig config;

    IdentityMapper(IdentityConfig config) {
        this.config = config;
    }

    /** The caller of the current request: mapped once per verified token when the token came from the cache. */
    public Identity of(SecurityIdentity security) {
        Identity mapped = security.getAttribute(MAPPED);
        return mapped != null ? mapped : map((JsonWebToken) security.getPrincipal());
    }

    /** When the current request's verified token expires; null if it says nothing of it. */
    public Instant expiry(SecurityIdentity security) {
        if (security.getPrincipal() instanceof JsonWebToken token && token.getExpirationTime() > 0) {
            return Instant.ofEpochSecond(token.getExpirationTime());
        }
        return null;
    }

    /**
     * What follows one client without a session: the token's {@code sid}, else its {@code jti}, tagged with which
     * it is and cut to 128 characters; null if the token has neither.
     */
    public String correlationId(SecurityIdentity security) {
        if (!(security.getPrincipal() instanceof JsonWebToken token)) {
            return null;
        }
        Object sid = token.getClaim("sid");
        String value = sid != null ? String.valueOf(sid).replace("\"", "") : token.getTokenID();
        if (value == null || value.isBlank()) {
            return null;
        }
        String tagged = (sid != null ? "sid:" : "jti:") + value;
        return tagged.length() <= 128 ? tagged : tagged.substring(0, 128);
    }

    public Identity map(JsonWebToken token) {
        String subject = first(token, config.subjectClaims());
        if (subject == null || subject.isBlank()) {
            throw new IllegalStateException("token has no subject claim");
        }
        return new Identity(subject, first(token, config.clientClaims()), first(token, config.tenantClaims()),
                all(token, config.rolesClaims(), false), all(token, config.groupsClaims(), false),
                all(token, config.scopeClaims(), true));
    }

    private static String first(JsonWebToken token, List<String> paths) {
        for (String path : paths) {
            Set<String> values = values(claim(token, path), false);
            if (!values.isEmpty()) {
                return values.iterator().next();
            }
        }
        return null;
    }

    private static Set<String> all(JsonWebToken token, List<String> paths, boolean splitSpaces) {
        var out = new LinkedHashSet<String>();
        for (String path : paths) {
            out.addAll(values(claim(token, path), splitSpaces));
        }
        return out;
    }

    private static Object claim(JsonWebToken token, String path) {
        String[] steps = path.split("/");
        Object value = token.getClaim(steps[0]);
        for (int i = 1; i < steps.length && value != null; i++) {
            value = value instanceof JsonObject o ? o.get(steps[i]) : null;
        }
        return value;
    }

    private static Set<String> values(Object value, boolean splitSpaces) {
        var out = new LinkedHashSet<String>();
        if (value == null || value instanceof Boolean || value instanceof java.util.Map<?, ?> || value instanceof JsonValue jv
                && (jv.getValueType() == JsonValue.ValueType.NULL || jv.getValueType() == JsonValue.ValueType.TRUE
                || jv.getValueType() == JsonValue.ValueType.FALSE || jv.getValueType() == JsonValue.ValueType.OBJECT)) {
            return out; // an object or a flag names no one and nothing: its text ({"a":1}, true) would pass for a name
        }
        if (value instanceof JsonArray array) {
            for (JsonValue v : array) {
                out.addAll(values(v, splitSpaces));
            }
        } else if (value instanceof Collection<?> c) {
            for (Object v : c) {
                out.addAll(values(v, splitSpaces));
            }
        } else {
            String s = value instanceof JsonString js ? js.getString() : value.toString();
            if (splitSpaces) {
                for (String part : s.trim().split("\\s+")) {
                    if (!part.isEmpty()) {
                        out.add(part);
                    }
                }
            } else if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
