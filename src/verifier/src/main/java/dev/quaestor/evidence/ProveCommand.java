package dev.quaestor.evidence;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code prove EXPORT RECORD --out FILE [--trust KEY.pub]}: the proof of one record ({@code LOG/SEQ}) or
 * of every record of one request (its id), each against the latest checkpoint in the export that
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
        Args.readExport(args.positional.get(0), source);
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
            String what = "record " + Plain.n(f.seq()) + " of log " + f.log() + " (line " + Plain.n(f.line()) + ")";
            ProofSource.Log l = source.logs().get(f.log());
            if (l.unusable != null) {
                out.println("NOT PROVED: " + what + ": the log cannot be rebuilt from the export: " + l.unusable);
                return Main.NOT_VERIFIED;
            }
            String note = latestCovering(l, f.seq(), trusted);
            if (note == null) {
                out.println("NOT PROVED: " + what + ": no checkpoint in the export" + (trusted == null ? "" : " signed by a trusted key")
                        + " covers it yet; it can be proved once a checkpoint covers it");
                return Main.NOT_VERIFIED;
            }
            Checkpoint cp = ProofSource.unverified(note);
            var builder = new ProofBuilder(l.tree);
            RecordProof proof;
            try {
                if (!Arrays.equals(builder.root(cp.size()), cp.root())) {
                    out.println("NOT PROVED: the records of log " + f.log() + " in the export do not match its checkpoint at "
                            + Plain.n(cp.size()) + " records; run verify to find what was changed");
                    return Main.NOT_VERIFIED;
                }
                proof = new RecordProof(f.canonical(), f.seq() - 1, builder.inclusion(f.seq() - 1, cp.size()), note);
            } catch (RuntimeException e) {
                out.println("NOT PROVED: " + what + ": the export lacks hashes the proof needs (" + e.getMessage() + ")");
                return Main.NOT_VERIFIED;
            }
            file.append(proof.format());
            out.println("Proved " + what + " against the checkpoint of " + cp.origin() + " at " + Plain.n(cp.size()) + " records ("
                    + proof.path().size() + " hashes)");
        }
        Args.write(args.out, file.toString());
        out.println("Wrote " + args.out + " (" + Plain.n(file.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                + " bytes, " + found.size() + " proof(s)). Check it with: java -jar quaestor-verify.jar check " + args.out
                + " --trust KEY.pub");
        return Main.VERIFIED;
    }

    /** The note of the latest checkpoint that covers {@code seq} and that the rebuilt tree reaches (signed by a trusted key, if given). */
    private static String latestCovering(ProofSource.Log l, long seq, TrustedKeys trusted) {
        for (var e : l.notes.descendingMap().entrySet()) {
            if (e.getKey() < seq) {
                break;
            }
            Checkpoint cp = ProofSource.unverified(e.getValue());
            if (e.getKey() > l.tree.size() || cp == null || cp.size() != e.getKey()) {
                continue;
            }
            if (trusted != null) {
                try {
                    var opened = SignedNote.open(e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8), trusted.noteKeys());
                    if (opened.signers().stream().noneMatch(k -> cp.origin().equals(k.name() + "/" + l.name))) {
                        continue;
                    }
                } catch (SignedNote.Refused r) {
                    continue;
                }
            }
            return e.getValue();
        }
        return null;
    }
}
