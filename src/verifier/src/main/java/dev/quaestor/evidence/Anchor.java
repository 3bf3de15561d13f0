package dev.quaestor.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * A checkpoint's anchor (docs/audit-format.md, section 3.1): an RFC 3161 token over SHA-256 of the note's text (the
 * bytes the log's key signed), as one more signature line, {@code — rfc3161-timestamp base64(key id || token)}, which
 * other C2SP verifiers ignore as they ignore any unknown key's signature.
 */
public final class Anchor {

    /** The key name on the line. */
    public static final String NAME = "rfc3161-timestamp";
    /** What follows the signature type 0xff (C2SP signed-note: a type without an assigned byte) in the key id. */
    static final String TYPE = "quaestor.dev/rfc3161-timestamp@v1";
    /** SHA-256(name || 0x0A || 0xff || type)[:4]: there is no public key, the token carries its own certificate. */
    public static final int KEY_ID = VerifierKey.idOf(NAME, (byte) 0xff, TYPE.getBytes(StandardCharsets.UTF_8));

    private Anchor() {
    }

    /** What a token over a checkpoint whose note text is {@code text} must carry as its message imprint. */
    public static byte[] imprint(String text) {
        return TreeHash.sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    /** The base64 field of the line for {@code token}: base64(key id || token). */
    public static String field(byte[] token) {
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4 + token.length).putInt(KEY_ID).put(token).array());
    }

    /** {@code note} with the line of a token whose field is {@code field} after its signatures. */
    public static String attach(String note, String field) {
        return note + SignedNote.DASH + NAME + " " + field + "\n";
    }

    /** The token on a note's anchor line, or null; a line not base64 of this key id and a token is refused. */
    public static byte[] find(String note) {
        int split = note.lastIndexOf("\n\n");
        if (split < 0) {
            return null;
        }
        String prefix = SignedNote.DASH + NAME + " ";
        for (String line : note.substring(split + 2).split("\n")) {
            if (line.startsWith(prefix)) {
                byte[] field;
                try {
                    field = Base64.getDecoder().decode(line.substring(prefix.length()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("its time-stamp line is not base64");
                }
                if (field.length < 5 || ByteBuffer.wrap(field, 0, 4).getInt() != KEY_ID) {
                    throw new IllegalArgumentException("its time-stamp line does not hold a token");
                }
                return Arrays.copyOfRange(field, 4, field.length);
            }
        }
        return null;
    }
}
