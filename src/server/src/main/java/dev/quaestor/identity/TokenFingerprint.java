package dev.quaestor.identity;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The SHA-256 of a bearer credential, used as a map key wherever the server must remember a
 * token without keeping the token itself in memory. Four longs compare and hash faster than a
 * hex string and allocate less.
 */
public record TokenFingerprint(long a, long b, long c, long d) {

    public static TokenFingerprint of(String credential) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JDK", e);
        }
        var digest = ByteBuffer.wrap(sha256.digest(credential.getBytes(StandardCharsets.UTF_8)));
        return new TokenFingerprint(digest.getLong(), digest.getLong(), digest.getLong(), digest.getLong());
    }
}
