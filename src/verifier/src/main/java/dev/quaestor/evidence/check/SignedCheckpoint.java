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

    /** Why a checkpoint note is not accepted, in words that start with what it was called. */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** Opens {@code note} with the {@code trusted} keys; {@code what} names it in the words of a refusal. */
    public static SignedCheckpoint open(String note, TrustedKeys trusted, String what) throws Refused {
        SignedNote.Opened opened;
        try {
            opened = SignedNote.open(note.getBytes(StandardCharsets.UTF_8), trusted.noteKeys());
        } catch (SignedNote.Refused e) {
            throw new Refused(what + switch (e.reason()) {
                case UNTRUSTED -> " is signed by a key that is not trusted: " + String.join(", ", SignedNote.signerIds(note));
                case INVALID_SIGNATURE -> " has an invalid signature (" + e.getMessage().replace("invalid signature by ", "key ")
                        + "): it was changed after it was signed";
                case MALFORMED -> " is damaged: " + e.getMessage();
            });
        }
        try {
            return new SignedCheckpoint(Checkpoint.parse(opened.text(), note), opened.text(), opened.signers());
        } catch (SignedNote.Refused e) {
            throw new Refused(what + " is signed but is " + e.getMessage());
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
