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

    /**
     * The exit code of a check: {@link #NOT_VERIFIED} if the evidence does not verify, or if it does with warnings and
     * {@code --strict} was given (a script that must not pass over a warning); then a line on {@code out} says so (none
     * if null: the JSON report on standard output holds the warnings).
     */
    static int verdict(boolean ok, List<String> warnings, boolean strict, PrintStream out) {
        if (ok && strict && !warnings.isEmpty()) {
            if (out != null) {
                out.println("NOT ACCEPTED (--strict): the evidence verifies, with " + warnings.size() + " warning(s) above");
            }
            return NOT_VERIFIED;
        }
        return ok ? VERIFIED : NOT_VERIFIED;
    }

    /** The text of {@code --help}: help.txt beside this class. */
    static String help() {
        try (var in = Main.class.getResourceAsStream("help.txt")) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Main() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs a command; returns its exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            out.print(help());
            return args.length == 0 ? USAGE : VERIFIED;
        }
        List<String> rest = Arrays.asList(args).subList(1, args.length);
        if (rest.contains("--help")) {
            out.print(help());
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
