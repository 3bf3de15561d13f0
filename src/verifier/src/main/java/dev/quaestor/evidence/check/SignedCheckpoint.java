package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.VerifierKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A checkpoint note accepted by a trusted key (docs/audit-format.md, section 3): a C2SP signed note that a key
 * the person verifying pinned signed, whose text is a checkpoint. Every check that takes a checkpoint opens it
 * here, so each refusal reads the same, whatever the checkpoint came in (an export, a proof, a note file).
 */
public record SignedCheckpoint(Checkpoint checkpoint, String text, List<VerifierKey> signers) {

    /** Why a checkpoint note is not accepted, in words that start with what it was called; what was expected and found. */
    public static final class Refused extends Refusal {
        Refused(String message, String expected, String found) {
            super(message, expected, found);
        }
    }

    /** Opens {@code note} with the {@code trusted} keys; {@code what} names it in the words of a refusal. */
    public static SignedCheckpoint open(String note, TrustedKeys trusted, String what) throws Refused {
        SignedNote.Opened opened;
        try {
            opened = SignedNote.open(note.getBytes(StandardCharsets.UTF_8), trusted.noteKeys());
        } catch (SignedNote.Refused e) {
            String signers = String.join(", ", SignedNote.signerIds(note));
            throw switch (e.reason()) {
                case UNTRUSTED -> new Refused(what + " is signed by a key that is not trusted: " + signers, "a signature by "
                        + String.join(", ", trusted.noteKeys().stream().map(k -> k.name() + "+" + k.keyIdHex()).toList()), signers);
                case INVALID_SIGNATURE -> new Refused(what + " has an invalid signature (" + e.getMessage().replace(
                        "invalid signature by ", "key ") + "): it was changed after it was signed", "a signature that verifies",
                        e.getMessage());
                case MALFORMED -> new Refused(what + " is damaged: " + e.getMessage(), "a signed note", e.getMessage());
            };
        }
        try {
            return new SignedCheckpoint(Checkpoint.parse(opened.text(), note), opened.text(), opened.signers());
        } catch (SignedNote.Refused e) {
            throw new Refused(what + " is signed but is " + e.getMessage(), "a checkpoint", e.getMessage());
        }
    }

    /** The key that signed this checkpoint as log {@code log}'s (its origin is {@code <key name>/<log>}), or null. */
    public VerifierKey signerOf(String log) {
        for (VerifierKey k : signers) {
            if (checkpoint.origin().equals(k.name() + "/" + log)) {
                return k;
            }
        }
        return null;
    }
}
