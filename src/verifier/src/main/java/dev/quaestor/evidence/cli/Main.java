package dev.quaestor.evidence.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** {@code java -jar quaestor-verify.jar COMMAND …}: checks Quaestor's audit evidence offline, trusting only what you pin. */
public final class Main {

    /** The evidence verifies. */
    public static final int VERIFIED = 0;
    /** The evidence does not verify: tampering, a bad signature, an untrusted key, a broken proof. */
    public static final int NOT_VERIFIED = 1;
    /** The command line is wrong, or an input cannot be read. */
    public static final int USAGE = 2;

    static final String HELP = """
            quaestor-verify: checks Quaestor's audit evidence, trusting neither the server nor its database.
            Only the keys you name with --trust are trusted: the log's verifier key, published by whoever runs
            the server (a line like quaestor.audit+1a2b3c4d+AQ…), written out in full or in a file (one key
            per line; lines starting with # are skipped). For logs begun in format version 1, the version-1
            public key (base64) is accepted too. Repeat --trust for a retired key that signed older checkpoints.
            Checkpoints may carry an RFC 3161 time-stamp token from a time-stamping authority (TSA): it is
            checked only against the TSA root certificates you pin with --tsa-ca (a PEM file; repeatable).

            Usage: java -jar quaestor-verify.jar COMMAND ...

              verify EXPORT --trust KEY.pub [--trust KEY2.pub] [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]
                     [--partial] [--plain] [--json FILE]
                  Checks every log in an export (JSON Lines): no record changed, missing, inserted or moved,
                  and every signed checkpoint matches the records. Names the first broken record of each log,
                  with its seq and line, and each problem's evidence: the value expected, the value found
                  and the lines involved. --json FILE: the report as JSON too (- for standard output,
                  instead of the text). With --tsa-ca, checks each checkpoint's time-stamp token (made at
                  most --tsa-max-delay after the checkpoint, default 1h) and says up to where time-stamps
                  vouch for the records. --partial: the export covers only part of the logs (a time range).
                  --plain: read the export line by line with the plain reader only (slower; the same checks).
                  EXPORT may be - for standard input.

              prove EXPORT RECORD --out FILE [--trust KEY.pub]
                  Writes a proof file for one record (RECORD = LOG/SEQ, e.g. replica-a/1234) or for every
                  record of one request (RECORD = the request id). Each proof holds that record and only
                  hashes of the others, against the first time-stamped checkpoint in the export that
                  covers it (its time is the closest bound on when the record existed), else the latest.

              check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]
                  Checks a proof file offline and prints each record in plain words, and, with --tsa-ca,
                  when a time-stamping authority saw its checkpoint.

              checkpoint EXPORT LOG [SIZE] --out FILE
                  Writes a log's signed checkpoint (the latest, or the one for SIZE records) to a file.

              consistency-proof EXPORT LOG OLD-SIZE NEW-SIZE --out FILE
                  Writes the proof that the log of OLD-SIZE records is the start of the log of NEW-SIZE records.

              consistency OLD-CHECKPOINT NEW-CHECKPOINT PROOF --trust KEY.pub
                  Checks that a log only grew between two signed checkpoints (nothing rewritten or removed).

              bundle check BUNDLE.zip --trust KEY.pub [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]
                  Checks an evidence bundle: every file as its manifest names it, each record's proof, each
                  checkpoint's signature (and, with --tsa-ca, its time-stamp token), the consistency proofs,
                  and the policy files of each revision the records name. Names the file and the position of
                  every byte altered, added or removed.

              --help
                  Shows this text.

            Exit codes:
              0  verified
              1  the evidence does not verify (tampering, a bad signature, an untrusted key, a broken proof)
              2  the command line is wrong, or an input cannot be read
            """;

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.print(HELP);
            return args.length == 0 ? USAGE : VERIFIED;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (rest.contains("--help")) {
            out.print(HELP);
            return VERIFIED;
        }
        try {
            return switch (args[0]) {
                case "verify" -> VerifyCommand.run(rest, out);
                case "prove" -> ProveCommand.run(rest, out);
                case "check" -> CheckCommand.run(rest, out);
                case "checkpoint" -> CheckpointCommand.run(rest, out);
                case "consistency-proof" -> ConsistencyProofCommand.run(rest, out);
                case "consistency" -> ConsistencyCommand.run(rest, out);
                case "bundle" -> BundleCommand.run(rest, out);
                default -> throw new UsageError("unknown command \"" + args[0] + "\"");
            };
        } catch (UsageError e) {
            err.println("quaestor-verify: " + e.getMessage());
            err.println("Run java -jar quaestor-verify.jar --help for how to use it.");
            return USAGE;
        } catch (RuntimeException | OutOfMemoryError e) {
            err.println("quaestor-verify: the check could not be completed (" + e + "); nothing was verified");
            return USAGE;
        }
    }
}
