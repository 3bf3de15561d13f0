package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.Plain;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.check.RecordProofCheck;
import dev.quaestor.evidence.check.TimeStampCheck;
import dev.quaestor.evidence.check.TrustedKeys;
import java.io.PrintStream;
import java.nio.charset.CharacterCodingException;
import java.util.List;
import java.util.Set;

/** {@code check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem]}: checks every proof in a proof file, offline, and shows each record. */
final class CheckCommand {

    static final String USAGE = "check FILE --trust KEY.pub [--tsa-ca TSA-ROOT.pem] [--tsa-max-delay 1h]";

    static int run(List<String> arguments, PrintStream out) throws UsageError {
        Args args = Args.parse(arguments, Set.of("--trust", "--tsa-ca", "--tsa-max-delay"));
        args.expect(1, "one proof file: " + USAGE);
        TrustedKeys trusted = args.trusted();
        TimeStampCheck stamps = args.stamps();
        return check(Args.bytes(args.positional.get(0), Args.MAX_SMALL_FILE, "a proof file", 1), trusted, stamps, out);
    }

    /** Checks a proof file's bytes; prints what it proves; returns the exit code. */
    static int check(byte[] bytes, TrustedKeys trusted, TimeStampCheck stamps, PrintStream out) throws UsageError {
        String text;
        try {
            text = Hex.utf8(bytes, 0, bytes.length);
        } catch (CharacterCodingException e) {
            out.println("NOT VERIFIED: the proof file is damaged: it is not UTF-8 text");
            return Main.NOT_VERIFIED;
        }
        if (!text.startsWith(RecordProof.HEADER + "\n")) {
            throw new UsageError("this is not a proof file: it must start with the line " + RecordProof.HEADER);
        }
        List<RecordProof> proofs;
        try {
            proofs = RecordProof.parseAll(text);
        } catch (IllegalArgumentException e) {
            out.println("NOT VERIFIED: the proof file is damaged: " + e.getMessage());
            return Main.NOT_VERIFIED;
        }
        int failed = 0;
        for (RecordProof p : proofs) {
            var r = RecordProofCheck.check(p, trusted, stamps);
            out.println();
            if (r.fields() != null) {
                out.println("Record " + Plain.visible(String.valueOf(r.fields().get("seq"))) + " of log "
                        + Plain.visible(String.valueOf(RecordProofCheck.logOf(r.fields()))));
                RecordWords.print(r.fields(), out);
            }
            if (r.verified()) {
                out.println("  VERIFIED: this record is in log " + r.checkpoint().origin() + " as signed at "
                        + Plain.n(r.checkpoint().size()) + " records" + (r.checkpoint().time() == null ? "" : " on " + r.checkpoint().time())
                        + " by " + r.signer());
                out.println("  " + r.anchor());
                if (stamps != null && r.stamp() == null) {
                    out.println("  WARNING: --tsa-ca was given, and no time-stamp vouches for this checkpoint");
                }
            } else {
                failed++;
                out.println("  NOT VERIFIED: " + r.failure());
            }
        }
        out.println();
        out.println(failed == 0 ? "VERIFIED: " + proofs.size() + " record(s)" : "NOT VERIFIED: " + failed + " of " + proofs.size()
                + " record(s) did not verify");
        return failed == 0 ? Main.VERIFIED : Main.NOT_VERIFIED;
    }
}
