package dev.quaestor.cases;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * What a case's audit record holds in place of text staff typed into the case (a title, a description, a note, a
 * search, a hold's target or reason): its length and the SHA-256 of its UTF-8 bytes, exactly as stored. The trail so
 * binds what was written without disclosing it to everyone who may read the trail; the case's members read the text
 * on the case and check it against the record ({@code printf '%s' "$TEXT" | sha256sum}).
 */
public final class CaseText {

    private CaseText() {
    }

    /** The SHA-256 of the text's UTF-8 bytes, in lower-case hex. */
    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** {@code what N bytes sha256=HEX}, or {@code what none} for no text. */
    public static String bound(String what, String text) {
        if (text == null) {
            return what + " none";
        }
        return what + " " + text.getBytes(StandardCharsets.UTF_8).length + " bytes sha256=" + sha256(text);
    }
}
