package dev.quaestor.evidence.v1;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.VerifierKey;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A version-1 checkpoint (docs/audit-format.md, section 1.3): an Ed25519 signature over
 * {@code "quaestor-checkpoint-v1\n" log "\n" seq "\n" hash "\n" time} that pins the stored hash of
 * record {@code seq}. Its key is named by its version-1 key id: the first 16 hex digits of the SHA-256
 * of the key's X.509 encoding.
 */
public record V1Checkpoint(String log, long seq, String hash, String time, String keyId, String signature) {

    /** DER prefix of an X.509 SubjectPublicKeyInfo holding a raw Ed25519 key. */
    static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    /** The signed bytes. */
    public static byte[] payload(String log, long seq, String hash, String time) {
        return ("quaestor-checkpoint-v1\n" + log + "\n" + seq + "\n" + hash + "\n" + time).getBytes(StandardCharsets.UTF_8);
    }

    public byte[] payload() {
        return payload(log, seq, hash, time);
    }

    /** The version-1 key id of a raw 32-byte Ed25519 public key. */
    public static String keyId(byte[] rawPublicKey) {
        return Hex.of(TreeHash.sha256(x509(rawPublicKey))).substring(0, 16);
    }

    /** The X.509 encoding of a raw Ed25519 public key (what version 1 published, in base64). */
    public static byte[] x509(byte[] rawPublicKey) {
        byte[] der = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + 32);
        System.arraycopy(rawPublicKey, 0, der, X509_PREFIX.length, 32);
        return der;
    }

    /** The raw key inside a base64 X.509 Ed25519 public key, or null if it is not one. */
    public static byte[] rawKey(String base64X509) {
        byte[] der;
        try {
            der = Base64.getDecoder().decode(base64X509.strip());
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (der.length != X509_PREFIX.length + 32 || !Arrays.equals(der, 0, X509_PREFIX.length, X509_PREFIX, 0, X509_PREFIX.length)) {
            return null;
        }
        return Arrays.copyOfRange(der, X509_PREFIX.length, der.length);
    }

    /** Whether the signature is {@code rawPublicKey}'s over the payload. */
    public boolean signedBy(byte[] rawPublicKey) {
        byte[] sig;
        try {
            sig = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return VerifierKey.of("v1", rawPublicKey).verifies(payload(), sig);
    }
}
