package dev.quaestor.evidence.write;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.VerifierKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/** Signs C2SP signed notes and checkpoints (docs/audit-format.md, section 3): what {@link SignedNote} opens. */
public final class NoteSigner {

    private NoteSigner() {
    }

    /** Signs {@code text} (lines each ending in a newline) and returns the whole note. */
    public static String sign(String text, VerifierKey key, PrivateKey privateKey) {
        if (!text.endsWith("\n") || text.contains("\n\n") || SignedNote.hasControl(text)) {
            throw new IllegalArgumentException("note text must be non-empty lines, each ending in a newline");
        }
        try {
            var s = Signature.getInstance("Ed25519");
            s.initSign(privateKey);
            s.update(text.getBytes(StandardCharsets.UTF_8));
            byte[] sig = s.sign();
            byte[] field = ByteBuffer.allocate(4 + sig.length).putInt(key.keyId()).put(sig).array();
            return text + "\n" + SignedNote.DASH + key.name() + " " + Base64.getEncoder().encodeToString(field) + "\n";
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with Ed25519: " + e.getMessage(), e);
        }
    }

    /** A checkpoint of the tree of {@code size} leaves with {@code root}, signed at {@code time}. */
    public static Checkpoint checkpoint(String origin, long size, byte[] root, Instant time, VerifierKey key, PrivateKey privateKey) {
        String note = sign(checkpointText(origin, size, root, time), key, privateKey);
        return new Checkpoint(origin, size, root.clone(), time, note);
    }

    /** The text of a checkpoint that is signed (docs/audit-format.md, section 3). */
    static String checkpointText(String origin, long size, byte[] root, Instant time) {
        if (origin.isEmpty() || origin.contains("\n") || origin.contains(" ")) {
            throw new IllegalArgumentException("bad origin: " + origin);
        }
        return origin + "\n" + size + "\n" + Base64.getEncoder().encodeToString(root) + "\ntime " + time + "\n";
    }
}
