package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.v1.V1Record;
import java.util.Map;

/**
 * Checks a proof of a record (docs/audit-format.md, section 4): a trusted key signed the checkpoint of the record's log;
 * the record is at its seq; its leaf and path lead to the root; a time-stamp token, if checked, vouches for it.
 */
public final class RecordProofCheck {

    /** The record's fields and checkpoint (null: unreadable, refused), verified time-stamp and its words, why not if not. */
    public record Result(Map<String, String> fields, Checkpoint checkpoint, String signer, TimeStampCheck.Stamp stamp,
            String anchor, String failure) {
        public boolean verified() {
            return failure == null;
        }
    }

    private RecordProofCheck() {
    }

    /** The log of a record's fields: {@code log}, or {@code chain} in version 1. */
    public static String logOf(Map<String, String> fields) {
        return V1Record.VERSION.equals(fields.get("v")) ? fields.get("chain") : fields.get("log");
    }

    /** @param stamps checks the checkpoint's time-stamp token; null: it is not checked */
    public static Result check(RecordProof proof, TrustedKeys trusted, TimeStampCheck stamps) {
        Map<String, String> fields;
        try {
            fields = CanonicalRecord.parse(proof.record());
        } catch (IllegalArgumentException e) {
            return new Result(null, null, null, null, null, "the record in the proof is damaged (" + e.getMessage() + ")");
        }
        SignedCheckpoint opened;
        try {
            opened = SignedCheckpoint.open(proof.checkpoint(), trusted, "the checkpoint");
        } catch (Refusal e) {
            return new Result(fields, null, null, null, null, e.getMessage());
        }
        Checkpoint cp = opened.checkpoint();
        String log = logOf(fields);
        VerifierKey signer = opened.signerOf(log);
        String who = signer == null ? null : signer.id();
        String failure = signer == null ? "the checkpoint is for " + cp.origin() + ", not for the record's log " + log
                : Decimal.parse(fields.get("seq")) != proof.index() + 1 ? "the proof's position (index " + proof.index()
                        + ") is not the record's seq " + fields.get("seq") + ": the proof was changed"
                : !ProofCheck.inclusion(proof.index(), cp.size(), TreeHash.leaf(proof.record()), proof.path(), cp.root())
                        ? "the record is not in the log as signed at " + Plain.n(cp.size())
                                + " records: the record or the proof's hashes were changed"
                : null;
        if (failure != null) {
            return new Result(fields, cp, who, null, null, failure);
        }
        byte[] token;
        try {
            token = Anchor.find(proof.checkpoint());
        } catch (IllegalArgumentException e) {
            return new Result(fields, cp, who, null, null, "the checkpoint is damaged: " + e.getMessage());
        }
        if (token == null) {
            return new Result(fields, cp, who, null, "not time-stamped: nothing outside the log's own key vouches for"
                    + " when this checkpoint was signed", null);
        }
        try {
            TimeStampCheck.Stamp stamp = TimeStampCheck.check(stamps, token, opened.text(), cp.time());
            return new Result(fields, cp, who, stamp, stamp == null ? "the checkpoint carries a time-stamp token, not"
                    + " checked (no --tsa-ca)" : "time-stamped: " + stamp.tsa() + " saw this checkpoint at " + stamp.time()
                    + ", so the record existed, as it is, by then", null);
        } catch (Refusal e) {
            return new Result(fields, cp, who, null, null, "the checkpoint's time-stamp token " + e.getMessage());
        }
    }
}
