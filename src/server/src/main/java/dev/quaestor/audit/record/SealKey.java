package dev.quaestor.audit.record;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * A key that seals text for the audit trail: a record holds {@code what hmac-sha256=HEX}, the HMAC-SHA-256 under this
 * key of the text's exact UTF-8 bytes, in place of the text. Whoever holds the key (a case's members, a bundle's
 * holder) checks a text against its record ({@code printf '%s' "$TEXT" | openssl dgst -sha256 -mac HMAC -macopt
 * hexkey:$KEY}); whoever does not cannot test guesses against it, as they could a plain hash of a short text.
 */
public final class SealKey {

    /** A key's length in bytes. */
    public static final int BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] key;

    private SealKey(byte[] key) {
        if (key.length != BYTES) {
            throw new IllegalArgumentException("a seal key is " + BYTES + " bytes, not " + key.length);
        }
        this.key = key.clone();
    }

    /** A new random key. */
    public static SealKey fresh() {
        byte[] key = new byte[BYTES];
        RANDOM.nextBytes(key);
        return new SealKey(key);
    }

    public static SealKey of(byte[] key) {
        return new SealKey(key);
    }

    public byte[] bytes() {
        return key.clone();
    }

    /** The key in lower-case hex, as members and bundles are given it. */
    public String hex() {
        return HexFormat.of().formatHex(key);
    }

    /** The HMAC-SHA-256 of the text's UTF-8 bytes under this key, in lower-case hex. */
    public String hmac(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK has HMAC-SHA-256", e);
        }
    }

    /** {@code what hmac-sha256=HEX}, or {@code what none} for no text: a text as a record says it. */
    public String sealed(String what, String text) {
        return text == null ? what + " none" : what + " hmac-sha256=" + hmac(text);
    }
}
