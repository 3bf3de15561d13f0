package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.prove.ProofSource;
import dev.quaestor.evidence.prove.Prover;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code prove EXPORT RECORD --out FILE [--trust KEY.pub]}: the proof of one record ({@code LOG/SEQ}) or
 * of every record of one request (its id), each against the first time-stamped (else the latest) checkpoint in the export that
 * covers it. With {@code --trust}, only checkpoints signed by those keys are used.
 */
final class ProveCommand {

    static final String USAGE = "prove EXPORT RECORD --out FILE [--trust KEY.pub]   (RECORD: LOG/SEQ or a request id)";

    private ProveCommand() {
    }

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--out", "--trust"));
        args.expect(2, "an export and a record: " + USAGE);
        if (args.out == null) {
            throw new UsageError("say where to write the proof with --out FILE");
        }
        TrustedKeys trusted = args.trust.isEmpty() ? null : args.trusted();
        String target = args.positional.get(1);
        int slash = target.lastIndexOf('/');
        String log = slash > 0 ? target.substring(0, slash) : null;
        String seq = slash > 0 ? target.substring(slash + 1) : null;
        var source = new ProofSource(r -> seq != null && seq.equals(r.seq()) && log.equals(r.log())
                || target.equals(r.fields().get("request")), Map.of());
        Args.readExport(args.positional.get(0), source, false);
        // LOG/SEQ if it names a record; otherwise a request id.
        var found = source.found().stream().filter(f -> f.log().equals(log) && Long.toString(f.seq()).equals(seq)).toList();
        if (found.isEmpty()) {
            found = source.found();
        }
        if (found.isEmpty()) {
            throw new UsageError("the export holds no record " + target + " (give LOG/SEQ, such as replica-a/1234, or a request id)");
        }
        var file = new StringBuilder();
        for (ProofSource.Found f : found) {
            RecordProof proof;
            try {
                proof = Prover.prove(source.logs().get(f.log()), f, trusted);
            } catch (Prover.NotProved e) {
                out.println("NOT PROVED: " + e.getMessage());
                return Main.NOT_VERIFIED;
            }
            file.append(proof.format());
            Checkpoint cp = ProofSource.unverified(proof.checkpoint());
            out.println("Proved record " + Plain.n(f.seq()) + " of log " + f.log() + " (line " + Plain.n(f.line())
                    + ") against the checkpoint of " + cp.origin() + " at " + Plain.n(cp.size()) + " records (" + proof.path().size()
                    + " hashes)");
        }
        Args.write(args.out, file.toString());
        out.println("Wrote " + args.out + " (" + Plain.n(file.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                + " bytes, " + found.size() + " proof(s)). Check it with: java -jar quaestor-verify.jar check " + args.out
                + " --trust audit.vkey");
        return Main.VERIFIED;
    }
}
