package dev.quaestor.audit.record;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keyed hashing (HMAC-SHA-256) of chosen audit fields, for organisations that must not store, say,
 * source addresses or user agents in clear. The stored value is {@code hmac:<hex>}; the same value
 * always gives the same hash, so searches still work (the auditor API hashes search values for
 * these fields) and {@code /audit/hash} tells an auditor what a given value would be stored as.
 * Without the key, hashed values cannot be reversed or guessed by trying values.
 *
 * <p>By default nothing is hashed: proving who read what needs the subject in clear, and the
 * subject, URI and content digest are what compliance staff search by.
 */
public final class FieldHasher {

    /** Fields that may be hashed; the others are what the log exists to show. */
    public static final Set<String> HASHABLE = Set.of("ip", "ua", "client", "tenant", "session");

    private final Set<String> fields;
    private final SecretKeySpec key;

    public FieldHasher(List<String> fields, String base64Key) {
        for (String f : fields) {
            if (!HASHABLE.contains(f)) {
                throw new IllegalArgumentException("quaestor.audit.hashed-fields: '" + f + "' cannot be hashed (allowed: "
                        + String.join(", ", new java.util.TreeSet<>(HASHABLE)) + ")");
            }
        }
        if (!fields.isEmpty() && (base64Key == null || base64Key.isBlank())) {
            throw new IllegalArgumentException("quaestor.audit.hashed-fields needs quaestor.audit.hmac-key");
        }
        this.fields = Set.copyOf(fields);
        this.key = fields.isEmpty() ? null : new SecretKeySpec(Base64.getDecoder().decode(base64Key.trim()), "HmacSHA256");
    }

    public static FieldHasher none() {
        return new FieldHasher(List.of(), null);
    }

    public boolean hashes(String field) {
        return fields.contains(field);
    }

    /** The value as stored: unchanged, or {@code hmac:<hex>} for a hashed field. */
    public String apply(String field, String value) {
        if (value == null || !fields.contains(field)) {
            return value;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update((field + ":").getBytes(StandardCharsets.UTF_8));
            return "hmac:" + HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
