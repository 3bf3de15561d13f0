package dev.quaestor.evidence;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A C2SP signed note: text, a blank line, lines {@code — <name> <base64(key id || sig)>}. Accepted only if a trusted key
 * signed it; other keys' lines (witnesses, retired keys) are ignored, as the specification asks.
 */
public final class SignedNote {

    public static final String DASH = "\u2014 ";
    /** Notes with more signature lines than this are refused (the specification requires accepting 16). */
    static final int MAX_SIGNATURES = 100;

    /** An opened note: its text and the trusted keys whose signatures verified. */
    public record Opened(String text, List<VerifierKey> signers) {
    }

    /** Why a note was refused: no trusted key signed it, a trusted key's signature is wrong, or it is not a note. */
    public static final class Refused extends Exception {

        public enum Reason { UNTRUSTED, INVALID_SIGNATURE, MALFORMED }

        public final Reason reason;
        /** UNTRUSTED: the names and key ids of the note's signature lines ({@code name+1a2b3c4d}), for messages. */
        public final List<String> signers;

        public Refused(String message) {
            this(Reason.MALFORMED, message, List.of());
        }

        Refused(Reason reason, String message, List<String> signers) {
            super(message, null, false, false);
            this.reason = reason;
            this.signers = signers;
        }
    }

    private SignedNote() {
    }

    /** Verifies {@code note} against {@code trusted} keys; throws {@link Refused} saying why it is not acceptable. */
    public static Opened open(byte[] note, Collection<VerifierKey> trusted) throws Refused {
        String s;
        try {
            s = Hex.utf8(note, 0, note.length);
        } catch (CharacterCodingException e) {
            throw new Refused("malformed note: not UTF-8");
        }
        if (hasControl(s)) {
            throw new Refused("malformed note: control characters other than newline");
        }
        int split = s.lastIndexOf("\n\n");
        if (split < 0) {
            throw new Refused("malformed note: no blank line before the signatures");
        }
        String text = s.substring(0, split + 1);
        String sigs = s.substring(split + 2);
        if (sigs.isEmpty() || !sigs.endsWith("\n")) {
            throw new Refused("malformed note: the signatures must end with a newline");
        }
        String[] lines = sigs.substring(0, sigs.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            throw new Refused("malformed note: more than " + MAX_SIGNATURES + " signatures");
        }
        byte[] message = text.getBytes(StandardCharsets.UTF_8);
        var verified = new ArrayList<VerifierKey>();
        var signers = new ArrayList<String>();
        Set<VerifierKey> seen = new HashSet<>();
        for (String line : lines) {
            if (!line.startsWith(DASH)) {
                throw new Refused("malformed note: a signature line must start with an em dash and a space");
            }
            String rest = line.substring(DASH.length());
            int space = rest.indexOf(' ');
            if (space <= 0 || !VerifierKey.validName(rest.substring(0, space))) {
                throw new Refused("malformed note: bad signer name in a signature line");
            }
            String name = rest.substring(0, space);
            byte[] field;
            try {
                field = Base64.getDecoder().decode(rest.substring(space + 1));
            } catch (IllegalArgumentException e) {
                throw new Refused("malformed note: a signature is not base64");
            }
            if (field.length < 5 || !Base64.getEncoder().encodeToString(field).equals(rest.substring(space + 1))) {
                throw new Refused("malformed note: a signature is not canonical base64 of at least 5 bytes");
            }
            int id = ByteBuffer.wrap(field, 0, 4).getInt();
            signers.add(name + "+" + String.format("%08x", id));
            VerifierKey key = trusted.stream().filter(k -> k.keyId() == id && k.name().equals(name)).findFirst().orElse(null);
            if (key == null || !seen.add(key)) {
                continue; // someone we were not asked to trust, or a repeat
            }
            byte[] sig = java.util.Arrays.copyOfRange(field, 4, field.length);
            if (!key.verifies(message, sig)) {
                throw new Refused(Refused.Reason.INVALID_SIGNATURE, "invalid signature by " + key.id(), List.of());
            }
            verified.add(key);
        }
        if (verified.isEmpty()) {
            throw new Refused(Refused.Reason.UNTRUSTED, "no signature by a trusted key (signed by: " + String.join(", ", signers)
                    + ")", List.copyOf(signers));
        }
        return new Opened(text, List.copyOf(verified));
    }

    public static boolean hasControl(String s) {
        return s.chars().anyMatch(c -> c < 0x20 && c != '\n');
    }
}
