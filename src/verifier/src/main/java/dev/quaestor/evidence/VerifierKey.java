package dev.quaestor.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A named Ed25519 key as C2SP signed notes name signers, {@code <name>+<hex key id>+base64(0x01 || key)}; the key id is
 * the first four bytes of SHA-256(name || 0x0A || 0x01 || key).
 */
public record VerifierKey(String name, int keyId, byte[] publicKey) {

    static final byte ED25519 = 0x01;
    /** DER prefix of an X.509 SubjectPublicKeyInfo holding a raw Ed25519 key. */
    private static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    public VerifierKey {
        if (!validName(name)) {
            throw new IllegalArgumentException("a key name must be non-empty, without spaces or '+': " + name);
        }
        if (publicKey.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key has 32 bytes, not " + publicKey.length);
        }
        publicKey = publicKey.clone();
        if (keyId != idOf(name, ED25519, publicKey)) {
            throw new IllegalArgumentException("the key id does not match the name and key");
        }
    }

    public static VerifierKey of(String name, byte[] publicKey) {
        return new VerifierKey(name, idOf(name, ED25519, publicKey), publicKey);
    }

    /** From a JDK public key (X.509 encoding ends with the raw 32 bytes). */
    public static VerifierKey of(String name, PublicKey key) {
        byte[] der = key.getEncoded();
        return of(name, Arrays.copyOfRange(der, der.length - 32, der.length));
    }

    /** Parses a verifier key string, strictly (the base64 part may itself contain '+'). */
    public static VerifierKey parse(String text) {
        String s = text.strip();
        String[] parts = s.split("\\+", 3);
        if (parts.length != 3 || parts[1].length() != 8 || !parts[1].matches("[0-9a-f]{8}")) {
            throw new IllegalArgumentException("not a verifier key (name+keyid+key): " + abbreviate(s));
        }
        byte[] body;
        try {
            body = Base64.getDecoder().decode(parts[2]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("verifier key: the key is not base64: " + abbreviate(s));
        }
        if (!Base64.getEncoder().encodeToString(body).equals(parts[2]) || body.length != 33 || body[0] != ED25519) {
            throw new IllegalArgumentException("verifier key: not an Ed25519 key (0x01 and 32 bytes): " + abbreviate(s));
        }
        int id = Integer.parseUnsignedInt(parts[1], 16);
        try {
            return new VerifierKey(parts[0], id, Arrays.copyOfRange(body, 1, 33));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("verifier key: " + e.getMessage() + ": " + abbreviate(s));
        }
    }

    public String keyIdHex() {
        return String.format("%08x", keyId);
    }

    /** {@code name+keyid}, as messages name a key. */
    public String id() {
        return name + "+" + keyIdHex();
    }

    @Override
    public String toString() {
        byte[] body = new byte[33];
        body[0] = ED25519;
        System.arraycopy(publicKey, 0, body, 1, 32);
        return id() + "+" + Base64.getEncoder().encodeToString(body);
    }

    @Override
    public byte[] publicKey() {
        return publicKey.clone();
    }

    /** Whether {@code signature} is this key's Ed25519 signature of {@code message}. */
    public boolean verifies(byte[] message, byte[] signature) {
        try {
            PublicKey k = JDK_KEYS.get(this);
            if (k == null) {
                byte[] der = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + 32);
                System.arraycopy(publicKey, 0, der, X509_PREFIX.length, 32);
                k = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
                JDK_KEYS.put(this, k);
            }
            Signature s = VERIFIER.get();
            s.initVerify(k);
            s.update(message);
            return s.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** Keys decoded once (a verifier checks many checkpoints with the same few keys). */
    private static final Map<VerifierKey, PublicKey> JDK_KEYS = new ConcurrentHashMap<>();
    /** An Ed25519 verifier per thread; {@code initVerify} resets it for each use. */
    private static final ThreadLocal<Signature> VERIFIER = ThreadLocal.withInitial(() -> {
        try {
            return Signature.getInstance("Ed25519");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JDK 15 or later has Ed25519", e);
        }
    });

    /** A C2SP key id: the first four bytes of SHA-256(name || 0x0A || signature type || key). */
    static int idOf(String name, byte type, byte[] key) {
        var md = TreeHash.digest();
        md.update(name.getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0x0A);
        md.update(type);
        md.update(key);
        return ByteBuffer.wrap(md.digest()).getInt();
    }

    static boolean validName(String name) {
        return name != null && !name.isEmpty() && name.indexOf('+') < 0
                && name.chars().noneMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c) || c < 0x20);
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "…";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VerifierKey k && k.keyId == keyId && k.name.equals(name) && Arrays.equals(k.publicKey, publicKey);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + keyId;
    }
}
