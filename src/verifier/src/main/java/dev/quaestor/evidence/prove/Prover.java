package dev.quaestor.evidence.prove;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.check.Refusal;
import dev.quaestor.evidence.check.SignedCheckpoint;
import dev.quaestor.evidence.check.TrustedKeys;
import java.util.Arrays;

/**
 * Makes the proof of one record read from an export (docs/audit-format.md, section 4): against the
 * first time-stamped checkpoint of its log that covers it (else the latest), the record's canonical bytes in {@code extra}, and only
 * hashes of other records in the path.
 */
public final class Prover {

    /** Why no proof could be made, in words. */
    public static final class NotProved extends Exception {
        NotProved(String message) {
            super(message, null, false, false);
        }
    }

    private Prover() {
    }

    /**
     * @param trusted if not null, only checkpoints signed by these keys (for the record's log) are used
     */
    public static RecordProof prove(ProofSource.Log log, ProofSource.Found found, TrustedKeys trusted) throws NotProved {
        String what = "record " + Plain.n(found.seq()) + " of log " + found.log() + " (line " + Plain.n(found.line()) + ")";
        if (log.unusable != null) {
            throw new NotProved(what + ": the log cannot be rebuilt from the export: " + log.unusable);
        }
        String note = covering(log, found.seq(), trusted);
        if (note == null) {
            throw new NotProved(what + ": no checkpoint in the export" + (trusted == null ? "" : " signed by a trusted key")
                    + " covers it yet; it can be proved once one does");
        }
        Checkpoint cp = ProofSource.unverified(note);
        var builder = new ProofBuilder(log.tree);
        try {
            if (!Arrays.equals(builder.root(cp.size()), cp.root())) {
                throw new NotProved("the records of log " + found.log() + " in the export do not match its checkpoint at "
                        + Plain.n(cp.size()) + " records; run verify to find what was changed");
            }
            var proof = new RecordProof(found.canonical(), found.seq() - 1, builder.inclusion(found.seq() - 1, cp.size()), note);
            if (!ProofCheck.inclusion(proof.index(), cp.size(), TreeHash.leaf(found.canonical()), proof.path(), cp.root())) {
                throw new NotProved(what + ": the proof does not check against the checkpoint");
            }
            return proof;
        } catch (RuntimeException e) {
            throw new NotProved(what + ": the export lacks hashes the proof needs (" + e.getMessage() + ")");
        }
    }

    /**
     * The note of the checkpoint to prove {@code seq} against, among those that cover it and that the
     * rebuilt tree reaches (signed by a trusted key, if given): the first that carries a time-stamp token,
     * whose time is then the closest bound on when the record existed; else the latest.
     */
    private static String covering(ProofSource.Log log, long seq, TrustedKeys trusted) {
        String latest = null;
        for (var e : log.notes.tailMap(seq, true).entrySet()) {
            Checkpoint cp = ProofSource.unverified(e.getValue());
            if (e.getKey() > log.tree.size() || cp == null || cp.size() != e.getKey() || !signed(e.getValue(), cp, log, trusted)) {
                continue;
            }
            if (stamped(e.getValue())) {
                return e.getValue();
            }
            latest = e.getValue();
        }
        return latest;
    }

    private static boolean signed(String note, Checkpoint cp, ProofSource.Log log, TrustedKeys trusted) {
        if (trusted == null) {
            return true;
        }
        try {
            return SignedCheckpoint.open(note, trusted, "").signerOf(log.name) != null;
        } catch (Refusal r) {
            return false;
        }
    }

    private static boolean stamped(String note) {
        try {
            return Anchor.find(note) != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
