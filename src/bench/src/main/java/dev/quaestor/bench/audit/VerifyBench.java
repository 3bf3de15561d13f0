package dev.quaestor.bench.audit;

import dev.quaestor.evidence.cli.Main;
import dev.quaestor.testtsa.OpensslTsa;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * quaestor-verify's speed on a synthetic export, warm: the export of {@code records} records (a checkpoint every
 * 1,000) written to {@code dir} twice, without time-stamps and with every checkpoint time-stamped by OpenSSL's TSA,
 * each verified three times in this JVM. The files stay in {@code dir} for the cold runs of src/bench/verify-bench.sh.
 * Arguments: DIR [RECORDS (default 1000000)].
 */
public final class VerifyBench {

    private VerifyBench() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int n = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        Files.createDirectories(dir);
        Path plain = dir.resolve("plain.jsonl");
        Path anchored = dir.resolve("anchored.jsonl");
        if (Files.exists(anchored)) {
            // Made by an earlier run in this directory (its tokens verify for an hour after it).
            System.out.printf("reusing %s and %s%n", plain, anchored);
        } else {
            var key = ExportKey.generate();
            var tsa = OpensslTsa.create(dir.resolve("tsa"), "Bench TSA");
            Files.copy(tsa.root(), dir.resolve("tsa-root.pem"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(dir.resolve("audit.vkey"), SyntheticExport.write(plain, n, key, null));
            long t = System.nanoTime();
            SyntheticExport.write(anchored, n, key, tsa);
            System.out.printf("wrote %s (%,d MiB) and %s (%,d MiB, %,d tokens from openssl ts in %.0f s)%n", plain.getFileName(),
                    Files.size(plain) >> 20, anchored.getFileName(), Files.size(anchored) >> 20, (n + 999) / 1000,
                    (System.nanoTime() - t) / 1e9);
        }
        String vkey = dir.resolve("audit.vkey").toString();
        for (int i = 1; i <= 3; i++) {
            System.out.println("warm, no time-stamps, run " + i + ": " + verified("verify", plain.toString(), "--trust", vkey));
        }
        for (int i = 1; i <= 3; i++) {
            System.out.println("warm, time-stamped, run " + i + ": " + verified("verify", anchored.toString(), "--trust", vkey,
                    "--tsa-ca", dir.resolve("tsa-root.pem").toString()));
        }
    }

    private static String verified(String... args) {
        var buf = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(buf, true, StandardCharsets.UTF_8), System.err);
        String out = buf.toString(StandardCharsets.UTF_8);
        if (code != Main.VERIFIED) {
            throw new IllegalStateException("quaestor-verify exited " + code + ":\n" + out);
        }
        return out.lines().filter(l -> l.startsWith("VERIFIED")).findFirst().orElse(out);
    }
}
