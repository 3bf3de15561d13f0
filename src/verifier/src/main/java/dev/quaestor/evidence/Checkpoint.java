package dev.quaestor.evidence;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.Collection;

/** A signed tree head (section 3): C2SP tlog-checkpoint text (origin, size, base64 root, {@code time}) in a signed note. */
public record Checkpoint(String origin, long size, byte[] root, Instant time, String note) {

    /** Opens and parses a checkpoint note; it must be signed by a trusted key. */
    public static Checkpoint open(String note, Collection<VerifierKey> trusted) throws SignedNote.Refused {
        var opened = SignedNote.open(note.getBytes(StandardCharsets.UTF_8), trusted);
        return parse(opened.text(), note);
    }

    /** Parses the text of a checkpoint whose signature was checked (or is about to be). */
    public static Checkpoint parse(String text, String note) throws SignedNote.Refused {
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        if (lines.length < 3) {
            throw new SignedNote.Refused("not a checkpoint: fewer than three lines");
        }
        if (lines[0].isEmpty()) {
            throw new SignedNote.Refused("not a checkpoint: empty origin");
        }
        long size = Decimal.parse(lines[1]);
        if (size < 0) {
            throw new SignedNote.Refused("not a checkpoint: bad tree size " + lines[1]);
        }
        byte[] root;
        try {
            root = Base64.getDecoder().decode(lines[2]);
        } catch (IllegalArgumentException e) {
            throw new SignedNote.Refused("not a checkpoint: root is not base64");
        }
        if (root.length != 32 || !Base64.getEncoder().encodeToString(root).equals(lines[2])) {
            throw new SignedNote.Refused("not a checkpoint: root is not 32 bytes of canonical base64");
        }
        Instant time = null;
        for (int i = 3; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                throw new SignedNote.Refused("not a checkpoint: empty extension line");
            }
            if (lines[i].startsWith("time ")) {
                try {
                    time = Instant.parse(lines[i].substring(5));
                } catch (DateTimeParseException e) {
                    throw new SignedNote.Refused("not a checkpoint: bad time " + lines[i].substring(5));
                }
            }
        }
        return new Checkpoint(lines[0], size, root, time, note);
    }

    @Override
    public byte[] root() {
        return root.clone();
    }
}
