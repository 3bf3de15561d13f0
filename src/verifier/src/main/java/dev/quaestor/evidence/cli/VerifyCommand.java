package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.check.LogVerifier;
import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Refusal;
import dev.quaestor.evidence.check.Report;
import dev.quaestor.evidence.check.SignedCheckpoint;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * {@code verify} ({@link #USAGE}): checks whole logs from an export; prints the report, each problem with its evidence,
 * and with {@code --json} writes it as JSON ({@link ReportJson}; {@code -}: on standard output, instead of the text).
 * With {@code --allow-unsigned-tail}, records after a log's last signed checkpoint are accepted and counted in the verdict.
 */
final class VerifyCommand {

    static final String USAGE = "verify EXPORT --trust KEY.pub [--trust KEY2.pub] [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]"
            + " [--max-anchor-gap 1h] [--expect-checkpoint KEPT.note] [--partial] [--allow-unsigned-tail] [--plain] [--json FILE] [--strict]";

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--trust", "--tsa-ca", "--tsa-max-delay", "--partial", "--allow-unsigned-tail",
                "--plain", "--json", "--expect-checkpoint", "--max-anchor-gap", "--strict"));
        args.expect(1, "one export file: " + USAGE);
        TrustedKeys trusted = args.trusted();
        TimeStampCheck stamps = args.stamps();
        String file = args.positional.get(0);
        var verifier = new LogVerifier(trusted, stamps, args.has("--partial"), args.has("--allow-unsigned-tail"), args.maxAnchorGap());
        for (String kept : args.expect) {
            expect(kept, trusted, verifier);
        }
        long started = System.nanoTime();
        Args.readExport(file, verifier, args.has("--plain"));
        Report report = verifier.finish();
        double seconds = (System.nanoTime() - started) / 1e9;
        if (args.json != null) {
            if (args.json.equals("-")) {
                out.print(ReportJson.of(report));
                return Main.verdict(report.ok(), report.warnings(), args.has("--strict"), null);
            }
            Args.write(args.json, ReportJson.of(report));
        }
        print(report, trusted, stamps, out);
        if (report.ok() && args.expect.isEmpty()) {
            out.println("Records cut from the end of a log leave no trace in what remains: to find them, keep a checkpoint apart"
                    + " (GET /audit/checkpoint?log=LOG&size=N, N a size the log was signed at, such as its signedThrough in"
                    + " /audit/verify) and give it with --expect-checkpoint.");
        }
        long records = report.records();
        out.printf("%s: %s %d log(s), read in %.2f s%s%n", report.ok() ? "VERIFIED" : "NOT VERIFIED", counts(report),
                report.logs().size(), seconds, records < 100_000 ? ""
                        : " (" + Plain.n(Math.round(records / Math.max(seconds, 1e-9))) + " records/s)");
        return Main.verdict(report.ok(), report.warnings(), args.has("--strict"), out);
    }

    /** A checkpoint the person verifying kept: signed by a trusted key as a log's, which the export must hold up to it. */
    private static void expect(String file, TrustedKeys trusted, LogVerifier verifier) throws UsageError {
        try {
            SignedCheckpoint kept = SignedCheckpoint.open(Args.read(Path.of(file)), trusted, file);
            if (kept.log() == null) {
                throw new UsageError("--expect-checkpoint: " + file + " is for " + kept.checkpoint().origin()
                        + ", which is not a log of the key that signed it");
            }
            verifier.expect(kept.log(), kept.checkpoint());
        } catch (Refusal e) {
            throw new UsageError("--expect-checkpoint: " + e.getMessage());
        }
    }

    /** The records; if a verified log has an unsigned tail (accepted), how many records are covered and how many not. */
    private static String counts(Report report) {
        List<Report.Summary> tails = report.logs().stream().filter(s -> s.unsignedTail() > 0).toList();
        if (!report.ok() || tails.isEmpty()) {
            return Plain.n(report.records()) + " records in";
        }
        return Plain.n(report.covered()) + " records covered by signed checkpoints; " + String.join("; ", tails.stream()
                .map(s -> Plain.n(s.unsignedTail()) + " later record(s) of log " + s.log() + " (seq " + Plain.n(s.lastSeq()
                        - s.unsignedTail() + 1) + " to " + Plain.n(s.lastSeq()) + ")").toList())
                + " are covered by no signature (--allow-unsigned-tail);";
    }

    static void print(Report report, TrustedKeys trusted, TimeStampCheck stamps, PrintStream out) {
        out.println("Trusted keys: " + String.join(", ", trusted.noteKeys().stream().map(VerifierKey::id).toList())
                + (trusted.noteKeys().isEmpty() ? "(version-1 keys only)" : ""));
        out.println(stamps == null ? "Time-stamps: not checked (no --tsa-ca)" : "Trusted TSA roots: " + String.join("; ", stamps.roots())
                + " (tokens at most " + TimeStampCheck.words(stamps.maxDelay()) + " after their checkpoint)");
        for (Report.Summary s : report.logs()) {
            out.println();
            out.println("Log " + s.log() + ": " + (s.broken() || report.problems().stream().anyMatch(p -> p.log().equals(s.log()))
                    ? "NOT VERIFIED" : "verified"));
            if (s.records() == 0) {
                out.println("  no records in the export");
            } else if (s.broken()) {
                out.println("  " + Plain.n(s.records()) + " records read (format version " + s.formats()
                        + "); the check of this log stopped at its first problem");
            } else {
                out.println("  records " + Plain.n(s.firstSeq()) + " to " + Plain.n(s.lastSeq()) + " (" + Plain.n(s.records())
                        + " read, format version " + s.formats() + ")");
            }
            if (s.archivedThrough() > 0) {
                out.println("  records 1 to " + Plain.n(s.archivedThrough()) + " are not in this export; a signed checkpoint covers them");
            }
            out.println("  " + Plain.n(s.checkpoints()) + " signed checkpoint(s) match the records"
                    + (s.signedThrough() > 0 ? "; signed up to seq " + Plain.n(s.signedThrough()) : ""));
            if (stamps != null) {
                out.println("  " + Plain.n(s.anchors()) + " of them time-stamped" + (s.anchors() == 0 ? ""
                        : "; time-stamps vouch up to seq " + Plain.n(s.anchoredThrough()) + " (seen by the TSA at " + s.anchoredAt() + ")"));
            }
            if (s.anchorGap() != null) {
                out.println("  records dated at most " + TimeStampCheck.words(s.anchorGap()) + " before the first time-stamp that"
                        + " covers them (record " + Plain.n(s.anchorGapSeq()) + ")");
            }
            if (s.nodes() > 0) {
                out.println("  " + Plain.n(s.nodes()) + " stored node(s) compared with the records");
            }
            report.problems().stream().filter(p -> p.log().equals(s.log())).forEach(p -> print(p, "  ", out));
        }
        for (Problem p : report.problems()) {
            if (report.logs().stream().noneMatch(s -> s.log().equals(p.log()))) {
                out.println();
                print(p, "", out);
            }
        }
        if (!report.warnings().isEmpty()) {
            out.println();
            report.warnings().forEach(w -> out.println("WARNING: " + w));
        }
        out.println();
    }

    /** A problem and its evidence; values from the export shown with control characters escaped. */
    private static void print(Problem p, String indent, PrintStream out) {
        out.println(indent + "PROBLEM: " + p.message());
        out.println(indent + "  expected: " + Plain.visible(p.evidence().expected()));
        out.println(indent + "  found:    " + Plain.visible(p.evidence().found()));
        if (!p.evidence().involved().isEmpty()) {
            out.println(indent + "  lines:    " + Plain.visible(String.join("; ", p.evidence().involved().stream()
                    .map(Problem.Involved::toString).toList())));
        }
    }
}
