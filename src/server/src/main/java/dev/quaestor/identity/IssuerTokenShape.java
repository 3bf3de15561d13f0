package dev.quaestor.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Base64;
import java.util.Optional;

/**
 * Whether a bearer token has the shape of one from the configured issuer: a signed JWT (three Base64url parts, an
 * {@code alg} that is not {@code none}) whose {@code iss} is the issuer's. Nothing is verified here, and the shape is
 * easy to forge: it decides only that such a token goes on to its signature check instead of being turned away with
 * the garbage of its address, so that no one's malformed tokens can lock out a client behind the same address whose
 * token is new to this replica. Costs a Base64 decoding and a JSON parse of a header already in memory.
 */
final class IssuerTokenShape {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A longer header value is not a token this server would take. */
    private static final int MAX_TOKEN = 16 * 1024;

    private final String issuer;

    /** {@code issuer}: the {@code iss} tokens carry (unset: no token has the shape). */
    IssuerTokenShape(Optional<String> issuer) {
        this.issuer = issuer.map(IssuerTokenShape::trimmed).orElse(null);
    }

    /** Whether {@code authorization} (the header's value) carries a token shaped as the issuer's. */
    boolean matches(String authorization) {
        if (issuer == null || authorization == null || authorization.length() > MAX_TOKEN
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        String[] parts = authorization.substring(7).strip().split("\\.", -1);
        if (parts.length != 3 || parts[2].isEmpty()) {
            return false;
        }
        JsonNode header = json(parts[0]);
        JsonNode payload = header == null ? null : json(parts[1]);
        if (payload == null || !header.path("alg").isTextual() || header.path("alg").asText().equalsIgnoreCase("none")) {
            return false;
        }
        return payload.path("iss").isTextual() && trimmed(payload.path("iss").asText()).equals(issuer);
    }

    private static JsonNode json(String part) {
        try {
            JsonNode n = JSON.readTree(Base64.getUrlDecoder().decode(part));
            return n != null && n.isObject() ? n : null;
        } catch (Exception e) {
            return null;
        }
    }

    private static String trimmed(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
