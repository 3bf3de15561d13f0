package dev.quaestor.pipeline;

import dev.quaestor.provider.InvalidCursorException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.logging.Logger;

/**
 * Seals the cursors {@code resources/list} gives out. A provider's cursor names where its listing stopped, which is
 * the last entry it examined, often one the policy then hid from the caller (a file name, a database key); a forged
 * one would start a listing anywhere. So a client is given the cursor encrypted and authenticated (AES-256-GCM, a
 * random nonce each, the subject as associated data): it can neither read it nor make one, and one subject's cursor
 * does not open for another. The key is derived from {@code quaestor.list.cursor-secret}, which every replica
 * needs the same of; without it the key is random per process and a cursor opens only on the replica that gave it.
 */
public final class ListingCursors {

    private static final Logger LOG = Logger.getLogger(ListingCursors.class);
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    public ListingCursors(java.util.Optional<String> configured) {
        String secret = configured.filter(s -> !s.isBlank()).orElse(null);
        if (secret == null) {
            byte[] b = new byte[32];
            random.nextBytes(b);
            secret = Base64.getEncoder().encodeToString(b);
            // A warning where several replicas may serve one client; in dev and tests there is one process.
            LOG.log(io.quarkus.runtime.LaunchMode.current().isDevOrTest() ? Logger.Level.DEBUG : Logger.Level.WARN,
                    "quaestor.list.cursor-secret is not set: resources/list cursors open only on the replica that gave"
                            + " them (set the same secret on every replica)");
        }
        try {
            byte[] k = MessageDigest.getInstance("SHA-256").digest(("quaestor-list-cursor\n" + secret).getBytes(StandardCharsets.UTF_8));
            key = new SecretKeySpec(k, "AES");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The cursor to give {@code subject} for a provider's {@code inner} cursor (null: no further page). */
    public String seal(String inner, String subject) {
        if (inner == null) {
            return null;
        }
        byte[] nonce = new byte[NONCE];
        random.nextBytes(nonce);
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, nonce, subject);
            byte[] sealed = c.doFinal(inner.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    ByteBuffer.allocate(NONCE + sealed.length).put(nonce).put(sealed).array());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The provider's cursor inside one {@link #seal} gave {@code subject}; {@link InvalidCursorException} otherwise. */
    public String open(String cursor, String subject) {
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(cursor);
        } catch (IllegalArgumentException e) {
            throw new InvalidCursorException();
        }
        if (raw.length <= NONCE + TAG_BITS / 8) {
            throw new InvalidCursorException();
        }
        try {
            Cipher c = cipher(Cipher.DECRYPT_MODE, java.util.Arrays.copyOf(raw, NONCE), subject);
            return new String(c.doFinal(raw, NONCE, raw.length - NONCE), StandardCharsets.UTF_8);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new InvalidCursorException();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private Cipher cipher(int mode, byte[] nonce, String subject) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, key, new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(subject.getBytes(StandardCharsets.UTF_8));
        return c;
    }
}
