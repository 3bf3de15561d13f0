package dev.quaestor.testtsa;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A time-stamping authority that is not ours: OpenSSL's {@code openssl ts -reply}, with a root CA and a TSA
 * certificate (critical time-stamping key usage) made for the test run in a directory of its own. It answers
 * RFC 3161 requests ({@link #reply}) and stamps data directly ({@link #stamp}); {@link #verify} asks
 * {@code openssl ts -verify} about a token. Tests need the {@code openssl} command (OpenSSL 1.1 or later).
 */
public final class OpensslTsa {

    private final Path dir;
    private final String name;

    private OpensslTsa(Path dir, String name) {
        this.dir = dir;
        this.name = name;
    }

    /** Makes a root CA "NAME Root" and a TSA certificate "NAME" under it, in {@code dir} (created). */
    public static OpensslTsa create(Path dir, String name) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        var tsa = new OpensslTsa(dir, name);
        Files.writeString(dir.resolve("ext.cnf"), """
                [root]
                basicConstraints = critical,CA:TRUE
                keyUsage = critical,keyCertSign,cRLSign
                subjectKeyIdentifier = hash
                [tsa]
                basicConstraints = critical,CA:FALSE
                keyUsage = critical,digitalSignature,nonRepudiation
                extendedKeyUsage = critical,timeStamping
                subjectKeyIdentifier = hash
                authorityKeyIdentifier = keyid
                """);
        Files.writeString(dir.resolve("tsa.cnf"), """
                [tsa]
                default_tsa = tsa_config
                [tsa_config]
                dir = .
                serial = ./serial
                crypto_device = builtin
                signer_cert = ./tsa.pem
                certs = ./root.pem
                signer_key = ./tsa.key
                signer_digest = sha256
                default_policy = 1.3.6.1.4.1.57264.9.1
                other_policies = 1.3.6.1.4.1.57264.9.2
                digests = sha256, sha384, sha512
                accuracy = secs:1
                clock_precision_digits = 3
                ordering = no
                tsa_name = yes
                ess_cert_id_chain = no
                ess_cert_id_alg = sha256
                """);
        Files.writeString(dir.resolve("serial"), "01\n");
        tsa.openssl("req", "-x509", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "root.key", "-out", "root.pem", "-days",
                "3650", "-subj", "/CN=" + name + " Root", "-config", "ext.cnf", "-extensions", "root");
        tsa.openssl("req", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "tsa.key", "-out", "tsa.csr", "-subj", "/CN=" + name,
                "-config", "ext.cnf");
        tsa.openssl("x509", "-req", "-in", "tsa.csr", "-CA", "root.pem", "-CAkey", "root.key", "-CAcreateserial", "-out", "tsa.pem",
                "-days", "3650", "-extfile", "ext.cnf", "-extensions", "tsa");
        return tsa;
    }

    /** The root CA's certificate (PEM): what a verifier pins. */
    public Path root() {
        return dir.resolve("root.pem");
    }

    public String name() {
        return name;
    }

    /** The time-stamp response (DER) to an RFC 3161 request (DER), as {@code openssl ts -reply} makes it. */
    public synchronized byte[] reply(byte[] request) throws IOException, InterruptedException {
        Files.write(dir.resolve("request.tsq"), request);
        openssl("ts", "-reply", "-config", "tsa.cnf", "-queryfile", "request.tsq", "-out", "reply.tsr");
        return Files.readAllBytes(dir.resolve("reply.tsr"));
    }

    /** A time-stamp token (DER) over SHA-256 of {@code data}, with the TSA's certificate in it. */
    public synchronized byte[] stamp(byte[] data) throws IOException, InterruptedException {
        Files.write(dir.resolve("data"), data);
        openssl("ts", "-query", "-data", "data", "-sha256", "-cert", "-out", "query.tsq");
        openssl("ts", "-reply", "-config", "tsa.cnf", "-queryfile", "query.tsq", "-token_out", "-out", "token.der");
        return Files.readAllBytes(dir.resolve("token.der"));
    }

    /** What {@code openssl ts -verify} says of {@code token} over {@code data} against the root {@code caFile}; null if OK. */
    public static String verify(Path scratch, byte[] data, byte[] token, Path caFile) throws IOException, InterruptedException {
        Path d = Files.write(scratch.resolve("verify.data"), data);
        Path t = Files.write(scratch.resolve("verify.token"), token);
        var r = run(scratch, List.of("openssl", "ts", "-verify", "-data", d.toString(), "-in", t.toString(), "-token_in", "-CAfile",
                caFile.toString()));
        return r.code == 0 && r.out.contains("Verification: OK") ? null : r.out;
    }

    private void openssl(String... args) throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add("openssl");
        command.addAll(List.of(args));
        Run r = run(dir, command);
        if (r.code != 0) {
            throw new IOException("openssl " + String.join(" ", args) + " failed (" + r.code + "): " + r.out);
        }
    }

    private record Run(int code, String out) {
    }

    private static Run run(Path dir, List<String> command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("the tests need the openssl command (apt-get install openssl): " + e.getMessage(), e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("openssl did not finish: " + command);
        }
        return new Run(p.exitValue(), out);
    }
}
