package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.ConsistencyProof;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.check.Refusal;
import dev.quaestor.evidence.check.SignedCheckpoint;
import dev.quaestor.evidence.check.TrustedKeys;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** {@code consistency} ({@link #USAGE}): whether a log only grew between two signed checkpoints, nothing rewritten. */
final class ConsistencyCommand {

    static final String USAGE = "consistency OLD-CHECKPOINT NEW-CHECKPOINT PROOF --trust KEY.pub";

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--trust"));
        args.expect(3, USAGE);
        TrustedKeys trusted = args.trusted();
        String oldNote = Args.read(Path.of(args.positional.get(0)));
        String newNote = Args.read(Path.of(args.positional.get(1)));
        String proofText = Args.read(Path.of(args.positional.get(2)));
        if (!proofText.startsWith(ConsistencyProof.HEADER + "\n")) {
            throw new UsageError(args.positional.get(2) + " is not a consistency proof: it must start with the line "
                    + ConsistencyProof.HEADER);
        }
        Checkpoint older = open(oldNote, "old", trusted, out);
        Checkpoint newer = open(newNote, "new", trusted, out);
        if (older == null || newer == null) {
            return Main.NOT_VERIFIED;
        }
        if (older.size() > newer.size()) {
            throw new UsageError("the old checkpoint (" + Plain.n(older.size()) + " records) is larger than the new one ("
                    + Plain.n(newer.size()) + "): give the older one first");
        }
        ConsistencyProof proof;
        try {
            proof = ConsistencyProof.parse(proofText);
        } catch (IllegalArgumentException e) {
            out.println("NOT VERIFIED: the proof is damaged: " + e.getMessage());
            return Main.NOT_VERIFIED;
        }
        if (!older.origin().equals(newer.origin())) {
            out.println("NOT VERIFIED: the checkpoints are of two different logs: " + older.origin() + " and " + newer.origin());
            return Main.NOT_VERIFIED;
        }
        if (!proof.origin().equals(older.origin()) || proof.from() != older.size() || proof.to() != newer.size()) {
            out.println("NOT VERIFIED: the proof is for log " + proof.origin() + " from " + Plain.n(proof.from()) + " to "
                    + Plain.n(proof.to()) + " records, but the checkpoints are for " + older.origin() + " at " + Plain.n(older.size())
                    + " and " + Plain.n(newer.size()) + " records");
            return Main.NOT_VERIFIED;
        }
        if (!ProofCheck.consistency(older.size(), older.root(), newer.size(), newer.root(), proof.path())) {
            if (older.size() == newer.size()) {
                out.println("NOT VERIFIED: both checkpoints are for " + Plain.n(older.size()) + " records but their roots differ:"
                        + " two different histories of the log were signed");
                return Main.NOT_VERIFIED;
            }
            out.println("NOT VERIFIED: the log at " + Plain.n(newer.size()) + " records does not extend the log at "
                    + Plain.n(older.size()) + " records: records up to " + Plain.n(older.size())
                    + " were rewritten or removed since the old checkpoint (or the proof was changed)");
            return Main.NOT_VERIFIED;
        }
        out.println("VERIFIED: log " + older.origin() + " only grew: its first " + Plain.n(older.size()) + " records, as signed"
                + (older.time() == null ? "" : " on " + older.time()) + ", are unchanged in the log of " + Plain.n(newer.size())
                + " records signed" + (newer.time() == null ? "" : " on " + newer.time()));
        return Main.VERIFIED;
    }

    private static Checkpoint open(String note, String which, TrustedKeys trusted, PrintStream out) {
        try {
            SignedCheckpoint opened = SignedCheckpoint.open(note, trusted, "the " + which + " checkpoint");
            Checkpoint cp = opened.checkpoint();
            if (opened.log() == null) {
                out.println("NOT VERIFIED: the " + which + " checkpoint is for " + cp.origin() + ", which is not a log of the key"
                        + " that signed it");
                return null;
            }
            return cp;
        } catch (Refusal e) {
            out.println("NOT VERIFIED: " + e.getMessage());
            return null;
        }
    }
}
