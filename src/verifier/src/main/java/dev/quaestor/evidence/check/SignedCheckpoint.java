package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.VerifierKey;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A checkpoint note signed by a pinned key (docs/audit-format.md, section 3). Every check opens checkpoints here, so a
 * refusal reads the same whatever it came in (an export, a proof, a note file).
 */
public record SignedCheckpoint(Checkpoint checkpoint, String text, List<VerifierKey> signers) {

    /** Opens {@code note} with the {@code trusted} keys, or says why not, in words starting with {@code what}. */
    public static SignedCheckpoint open(String note, TrustedKeys trusted, String what) throws Refusal {
        SignedNote.Opened opened;
        try {
            opened = SignedNote.open(note.getBytes(StandardCharsets.UTF_8), trusted.noteKeys());
        } catch (SignedNote.Refused e) {
            String signers = String.join(", ", e.signers);
            throw switch (e.reason) {
                case UNTRUSTED -> new Refusal(what + " is signed by a key that is not trusted: " + signers, "a signature by "
                        + String.join(", ", trusted.noteKeys().stream().map(VerifierKey::id).toList()), signers);
                case INVALID_SIGNATURE -> new Refusal(what + " has an invalid signature (" + e.getMessage().replace(
                        "invalid signature by ", "key ") + "): it was changed after it was signed", "a signature that verifies",
                        e.getMessage());
                case MALFORMED -> new Refusal(what + " is damaged: " + e.getMessage(), "a signed note", e.getMessage());
            };
        }
        try {
            return new SignedCheckpoint(Checkpoint.parse(opened.text(), note), opened.text(), opened.signers());
        } catch (SignedNote.Refused e) {
            throw new Refusal(what + " is signed but is " + e.getMessage(), "a checkpoint", e.getMessage());
        }
    }

    /** The log the checkpoint is of, for a key that signed it (its origin is {@code <key name>/<log>}), or null. */
    public String log() {
        String origin = checkpoint.origin();
        return signers.stream().filter(k -> origin.startsWith(k.name() + "/")).findFirst()
                .map(k -> origin.substring(k.name().length() + 1)).orElse(null);
    }

    /** The key that signed this checkpoint as log {@code log}'s (its origin is {@code <key name>/<log>}), or null. */
    public VerifierKey signerOf(String log) {
        return signers.stream().filter(k -> checkpoint.origin().equals(k.name() + "/" + log)).findFirst().orElse(null);
    }
}
