package dev.quaestor.evidence.check;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.SignedNote;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.v1.V1Record;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Checks one proof of a record (docs/audit-format.md, section 4), offline: the checkpoint is signed by
 * a trusted key and is the record's log's; the record sits at its seq; its leaf hash and the inclusion
 * path lead to the checkpoint's root.
 */
public final class RecordProofCheck {

    /** The outcome: the record's fields (null if they cannot be read), the checkpoint (null if refused), and why not, if not. */
    public record Result(Map<String, String> fields, Checkpoint checkpoint, String signer, String failure) {
        public boolean verified() {
            return failure == null;
        }
    }

    private RecordProofCheck() {
    }

    public static Result check(RecordProof proof, TrustedKeys trusted) {
        Map<String, String> fields = null;
        try {
            fields = CanonicalRecord.parse(proof.record());
        } catch (IllegalArgumentException e) {
            return new Result(null, null, null, "the record in the proof is damaged (" + e.getMessage() + ")");
        }
        SignedNote.Opened opened;
        try {
            opened = SignedNote.open(proof.checkpoint().getBytes(StandardCharsets.UTF_8), trusted.noteKeys());
        } catch (SignedNote.Refused e) {
            return new Result(fields, null, null, switch (e.reason()) {
                case UNTRUSTED -> "the checkpoint is signed by a key that is not trusted: "
                        + String.join(", ", SignedNote.signerIds(proof.checkpoint()));
                case INVALID_SIGNATURE -> "the checkpoint's signature is invalid: the checkpoint was changed after it was signed";
                case MALFORMED -> "the checkpoint is damaged: " + e.getMessage();
            });
        }
        Checkpoint cp;
        try {
            cp = Checkpoint.parse(opened.text(), proof.checkpoint());
        } catch (SignedNote.Refused e) {
            return new Result(fields, null, null, "the signed note is " + e.getMessage());
        }
        String log = V1Record.VERSION.equals(fields.get("v")) ? fields.get("chain") : fields.get("log");
        VerifierKey signer = null;
        for (VerifierKey k : opened.signers()) {
            if (cp.origin().equals(k.name() + "/" + log)) {
                signer = k;
            }
        }
        if (signer == null) {
            return new Result(fields, cp, null, "the checkpoint is for " + cp.origin() + ", not for the record's log " + log);
        }
        String who = signer.name() + "+" + signer.keyIdHex();
        if (Decimal.parse(fields.get("seq")) != proof.index() + 1) {
            return new Result(fields, cp, who, "the proof's position (index " + proof.index() + ") is not the record's seq "
                    + fields.get("seq") + ": the proof was changed");
        }
        if (!ProofCheck.inclusion(proof.index(), cp.size(), TreeHash.leaf(proof.record()), proof.path(), cp.root())) {
            return new Result(fields, cp, who, "the record is not in the log as signed at " + Plain.n(cp.size())
                    + " records: the record or the proof's hashes were changed");
        }
        return new Result(fields, cp, who, null);
    }
}
