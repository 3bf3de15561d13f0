package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.bundle.Manifest;
import dev.quaestor.evidence.bundle.check.BundleCheck;
import dev.quaestor.evidence.bundle.check.BundleReport;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code bundle check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem]}: checks an evidence bundle offline and prints a
 * plain report: what the bundle says it is, each record and what vouches for it, the checkpoints and their
 * time-stamps, the consistency proofs, the policy revisions, and every problem with its file and position.
 */
final class BundleCommand {

    static final String USAGE = "bundle check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]";

    private BundleCommand() {
    }

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        if (arguments.isEmpty() || !arguments.get(0).equals("check")) {
            throw new UsageError("expected " + USAGE);
        }
        Args args = Args.parse(arguments.subList(1, arguments.size()), Set.of("--trust", "--tsa-ca", "--tsa-max-delay"));
        args.expect(1, "one bundle file: " + USAGE);
        var trusted = args.trusted();
        var stamps = args.stamps();
        String file = args.positional.get(0);
        byte[] bytes = Args.bytes(file);
        BundleReport report = BundleCheck.check(bytes, trusted, stamps);
        print(report, out);
        return report.ok() ? Main.VERIFIED : Main.NOT_VERIFIED;
    }

    private static void print(BundleReport report, PrintStream out) {
        Manifest m = report.manifest();
        if (m != null) {
            out.println("Evidence bundle made by " + RecordWords.visible(m.madeBy()) + " at " + m.made() + " (UTC), "
                    + (m.forCase() == null ? "not for a case" : "for case " + RecordWords.visible(m.forCase())));
            out.println("  selected: " + RecordWords.visible(m.selection()));
            out.println("  its making is on record as request " + RecordWords.visible(m.request()));
            out.println("  " + Plain.n(m.records()) + " record(s) of " + Plain.n(m.requests()) + " request(s), " + Plain.n(m.files().size() + 1)
                    + " file(s)");
        }
        for (var r : report.records()) {
            out.println();
            out.println("Record " + RecordWords.visible(r.fields().get("seq")) + " of log " + RecordWords.visible(r.fields().get("log")));
            RecordWords.print(r.fields(), out);
            out.println("  proven: " + r.vouched());
        }
        section(out, "Checkpoints", report.checkpoints());
        section(out, "Consistency", report.consistency());
        section(out, "Policy files", report.policies());
        out.println();
        for (String w : report.warnings()) {
            out.println("WARNING: " + w);
        }
        if (report.ok()) {
            out.println("VERIFIED: every file of the bundle is as made, and " + Plain.n(report.records().size())
                    + " record(s) are proven in their logs");
        } else {
            out.println("NOT VERIFIED: " + Plain.n(report.problems().size()) + " problem(s)");
            for (var p : report.problems()) {
                out.println("  " + RecordWords.visible(p.toString()));
            }
        }
    }

    private static void section(PrintStream out, String title, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        out.println();
        out.println(title + ":");
        for (String l : lines) {
            out.println("  " + RecordWords.visible(l));
        }
    }
}
