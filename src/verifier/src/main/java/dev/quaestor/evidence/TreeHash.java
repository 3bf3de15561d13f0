package dev.quaestor.evidence;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** RFC 6962 §2.1 hashing: SHA-256 with a 0x00 prefix for leaves and 0x01 for interior nodes. */
public final class TreeHash {

    /** Declared first: the constant below uses it. */
    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    });

    /** The root of an empty tree: SHA-256 of nothing. */
    public static final byte[] EMPTY_ROOT = sha256(new byte[0]);

    private TreeHash() {
    }

    public static byte[] leaf(byte[] data) {
        return leaf(data, data.length);
    }

    /** The leaf hash of the first {@code length} bytes of {@code data}. */
    public static byte[] leaf(byte[] data, int length) {
        MessageDigest md = digest();
        md.update((byte) 0x00);
        md.update(data, 0, length);
        return md.digest();
    }

    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest md = digest();
        md.update((byte) 0x01);
        md.update(left);
        md.update(right);
        return md.digest();
    }

    public static byte[] sha256(byte[] data) {
        return digest().digest(data);
    }

    /** A SHA-256 digest, reset, for this thread's use until its next call (looking one up costs more than hashing a node). */
    static MessageDigest digest() {
        MessageDigest md = DIGEST.get();
        md.reset();
        return md;
    }
}
