package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.bundle.Manifest;
import dev.quaestor.evidence.bundle.check.BundleCheck;
import dev.quaestor.evidence.bundle.check.BundleReport;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;

/**
 * {@code bundle check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem]}: checks an evidence bundle offline and prints a
 * plain report: the ZIP's SHA-256, what the bundle says it is, each record and what vouches for it, the checkpoints
 * and their time-stamps, the consistency proofs, the policy revisions, and every problem with its file and position;
 * if none, what the bundle proves, what is only its maker's word, and how the log confirms that.
 */
final class BundleCommand {

    static final String USAGE = "bundle check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h] [--strict]";

    private BundleCommand() {
    }

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        if (arguments.isEmpty() || !arguments.get(0).equals("check")) {
            throw new UsageError("expected " + USAGE);
        }
        Args args = Args.parse(arguments.subList(1, arguments.size()), Set.of("--trust", "--tsa-ca", "--tsa-max-delay", "--strict"));
        args.expect(1, "one bundle file: " + USAGE);
        var trusted = args.trusted();
        var stamps = args.stamps();
        String file = args.positional.get(0);
        byte[] bytes = Args.bytes(file, BundleZip.MAX_CHECKED, "a bundle", 3);
        BundleReport report = BundleCheck.check(bytes, trusted, stamps);
        print(report, out);
        return Main.verdict(report.ok(), report.warnings(), args.has("--strict"), out);
    }

    private static void print(BundleReport report, PrintStream out) {
        Manifest m = report.manifest();
        out.println("Evidence bundle, SHA-256 " + report.sha256());
        if (m != null) {
            out.println("  made by " + Plain.visible(m.madeBy()) + " at " + m.made() + " (UTC), "
                    + (m.forCase() == null ? "not for a case" : "for case " + Plain.visible(m.forCase())));
            out.println("  selected: " + Plain.visible(m.selection()));
            out.println("  its making is on record as request " + Plain.visible(m.request()));
            out.println("  " + Plain.n(m.records()) + " record(s) of " + Plain.n(m.requests()) + " request(s), " + Plain.n(m.files().size() + 1)
                    + " file(s)");
        }
        for (var r : report.records()) {
            out.println();
            out.println("Record " + Plain.visible(r.fields().get("seq")) + " of log " + Plain.visible(r.fields().get("log")));
            RecordWords.print(r.fields(), out);
            out.println(r.vouched() != null ? "  proven: " + r.vouched() : "  NOT proven: " + Plain.visible(r.notProven()));
        }
        section(out, "Checkpoints", report.checkpoints());
        section(out, "Consistency", report.consistency());
        section(out, "Policy files", report.policies());
        out.println();
        for (String w : report.warnings()) {
            out.println("WARNING: " + w);
        }
        if (!report.ok()) {
            out.println("NOT VERIFIED: " + Plain.n(report.problems().size()) + " problem(s)");
            for (var p : report.problems()) {
                out.println("  " + Plain.visible(p.toString()));
            }
            return;
        }
        out.println("VERIFIED: " + Plain.n(report.records().size()) + " record(s), each proven in its log by its proof, at a checkpoint"
                + " signed by a trusted key");
        out.println("  the checkpoints: each signed by a trusted key, with its time-stamp as said under Checkpoints");
        out.println("  the policy files: each revision's files hash to the revision the records name");
        out.println("  the files: each is the one the manifest lists, and there is no other");
        out.println("Only its maker's word (the manifest is not signed): who made it, when, for which case, what was selected, and"
                + " that it holds every record of each selected request.");
        if (m != null) {
            String request = Plain.visible(m.request());
            out.println("To confirm them, find the record of its making in the log: request " + request + ", method audit/bundle/made."
                    + " If this is the bundle the server made, that record's sha256 is " + report.sha256() + ", and its detail names"
                    + " what was selected. The log's verifier finds it: in a verified export of the log, or in its proof"
                    + " (GET /audit/proof?requestId=" + request + ", then: check PROOF --trust audit.vkey).");
        }
    }

    private static void section(PrintStream out, String title, List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        out.println();
        out.println(title + ":");
        for (String l : lines) {
            out.println("  " + Plain.visible(l));
        }
    }
}
