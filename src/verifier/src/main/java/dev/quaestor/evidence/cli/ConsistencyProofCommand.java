package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.ConsistencyProof;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.check.ProofCheck;
import dev.quaestor.evidence.prove.ProofBuilder;
import dev.quaestor.evidence.prove.ProofSource;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code consistency-proof EXPORT LOG OLD-SIZE NEW-SIZE --out FILE}: the proof that a log only grew between two sizes. */
final class ConsistencyProofCommand {

    static final String USAGE = "consistency-proof EXPORT LOG OLD-SIZE NEW-SIZE --out FILE";

    private ConsistencyProofCommand() {
    }

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--out"));
        args.expect(4, USAGE);
        if (args.out == null) {
            throw new UsageError("say where to write the proof with --out FILE");
        }
        String log = args.positional.get(1);
        long from = Decimal.parse(args.positional.get(2));
        long to = Decimal.parse(args.positional.get(3));
        if (from < 0 || to < 0 || from > to) {
            throw new UsageError("OLD-SIZE and NEW-SIZE must be whole numbers of records, the old one not larger than the new one");
        }
        var source = new ProofSource(f -> false, Map.of(log, Set.of(from, to)));
        Args.readExport(args.positional.get(0), source, false);
        ProofSource.Log l = source.logs().get(log);
        if (l == null || l.tree == null) {
            throw new UsageError("the export holds no records of log " + log);
        }
        if (l.unusable != null) {
            out.println("NOT PROVED: log " + log + " cannot be rebuilt from the export: " + l.unusable);
            return Main.NOT_VERIFIED;
        }
        if (to > l.tree.size()) {
            throw new UsageError("the export holds only " + Plain.n(l.tree.size()) + " records of log " + log);
        }
        String origin = l.origin();
        if (origin == null) {
            throw new UsageError("the export has no checkpoint of log " + log + ", so the log's origin line is not known");
        }
        var builder = new ProofBuilder(l.tree);
        ConsistencyProof proof;
        try {
            proof = new ConsistencyProof(origin, from, to, builder.consistency(from, to));
            if (!ProofCheck.consistency(from, builder.root(from), to, builder.root(to), proof.path())) {
                throw new IllegalStateException("the proof does not check against the records' own roots");
            }
        } catch (RuntimeException e) {
            out.println("NOT PROVED: the export lacks hashes the proof needs (" + e.getMessage() + ")");
            return Main.NOT_VERIFIED;
        }
        Args.write(args.out, proof.format());
        out.println("Wrote " + args.out + ": log " + origin + " of " + Plain.n(from) + " records is the start of the log of "
                + Plain.n(to) + " records (" + proof.path().size() + " hashes).");
        out.println("Check it against the two signed checkpoints: java -jar quaestor-verify.jar consistency OLD.checkpoint"
                + " NEW.checkpoint " + args.out + " --trust audit.vkey");
        return Main.VERIFIED;
    }
}
