package dev.quaestor.audit.read;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.check.RecordProofCheck;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import java.util.HashMap;
import java.util.Map;

/**
 * The proofs of one answer (a request's proof file, a bundle), each checked as quaestor-verify checks it, against the
 * pinned keys and TSA roots only, before it is handed out: stored tree nodes or a checkpoint changed after signing
 * would make a proof that fails offline, and nothing is claimed proven that the verifier would refuse. A checkpoint's
 * signature and time-stamp are checked once, with the first proof that leads to it; each further proof to the same
 * checkpoint is checked for its path to that checkpoint's root.
 */
final class ProofSelfCheck {

    private final TrustedKeys trusted;
    private final TimeStampCheck stamps;
    /** Checkpoints found sound, by their note. */
    private final Map<String, Checkpoint> sound = new HashMap<>();

    /** @param stamps the pinned TSA roots' check; null: time-stamp tokens are not checked */
    ProofSelfCheck(TrustedKeys trusted, TimeStampCheck stamps) {
        this.trusted = trusted;
        this.stamps = stamps;
    }

    /** Why the verifier would refuse {@code proof}; null if it would accept it. */
    String failure(RecordProof proof) {
        Checkpoint cp = sound.get(proof.checkpoint());
        if (cp == null) {
            var checked = RecordProofCheck.check(proof, trusted, stamps);
            if (checked.verified()) {
                sound.put(proof.checkpoint(), checked.checkpoint());
            }
            return checked.failure();
        }
        return ProofCheck.inclusion(proof.index(), cp.size(), TreeHash.leaf(proof.record()), proof.path(), cp.root()) ? null
                : "the record is not in the log as signed at " + Plain.n(cp.size())
                        + " records: the record or the proof's hashes were changed";
    }
}
