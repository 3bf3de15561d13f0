package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.Decimal;
import dev.quaestor.evidence.ExportSink;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.prove.ProofSource;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

/** {@code checkpoint EXPORT LOG [SIZE] --out FILE}: copies a log's checkpoint note out of an export. */
final class CheckpointCommand {

    static final String USAGE = "checkpoint EXPORT LOG [SIZE] --out FILE";

    private CheckpointCommand() {
    }

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--out"));
        if (args.positional.size() < 2 || args.positional.size() > 3 || args.out == null) {
            throw new UsageError("expected " + USAGE);
        }
        String log = args.positional.get(1);
        long size = args.positional.size() == 3 ? Decimal.parse(args.positional.get(2)) : -2;
        if (size == -1) {
            throw new UsageError("SIZE must be a whole number of records, not " + args.positional.get(2));
        }
        var notes = new TreeMap<Long, String>();
        Args.readExport(args.positional.get(0), new ExportSink() {
            @Override
            public void checkpoint(String l, long s, String note, long line) {
                if (l.equals(log)) {
                    notes.put(s, note);
                }
            }
        }, false);
        if (notes.isEmpty()) {
            throw new UsageError("the export has no checkpoint of log " + log);
        }
        String note = size == -2 ? notes.lastEntry().getValue() : notes.get(size);
        if (note == null) {
            throw new UsageError("the export has no checkpoint of log " + log + " at " + Plain.n(size) + " records (it has "
                    + notes.size() + ", from " + Plain.n(notes.firstKey()) + " to " + Plain.n(notes.lastKey()) + " records)");
        }
        Args.write(args.out, note);
        Checkpoint cp = ProofSource.unverified(note);
        out.println("Wrote " + args.out + ": the checkpoint of " + (cp == null ? "log " + log : cp.origin()) + " at "
                + Plain.n(cp == null ? size : cp.size()) + " records (its signature is checked where it is used, with --trust)");
        return Main.VERIFIED;
    }
}
