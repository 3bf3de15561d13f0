package dev.quaestor.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * TLS material for a test service, made with {@code openssl} in a directory of its own: a CA, a server certificate
 * for localhost and 127.0.0.1 (also as a PKCS#12 key store for a JDK server), and a client certificate with its
 * key, in PEM, for mutual TLS.
 */
public record TlsFiles(Path dir) {

    public static final String PASSWORD = "test-only";

    public static TlsFiles create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("ext.cnf"), """
                [ca]
                basicConstraints = critical,CA:TRUE
                keyUsage = critical,keyCertSign,cRLSign
                [server]
                basicConstraints = critical,CA:FALSE
                keyUsage = critical,digitalSignature,keyEncipherment
                extendedKeyUsage = serverAuth
                subjectAltName = DNS:localhost,IP:127.0.0.1
                [client]
                basicConstraints = critical,CA:FALSE
                keyUsage = critical,digitalSignature
                extendedKeyUsage = clientAuth
                """);
        var t = new TlsFiles(dir);
        t.openssl("req", "-x509", "-new", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "365",
                "-subj", "/CN=Test TLS CA", "-config", "ext.cnf", "-extensions", "ca");
        for (String who : List.of("server", "client")) {
            t.openssl("genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", who + ".key");
            t.openssl("req", "-new", "-key", who + ".key", "-out", who + ".csr", "-subj", "/CN=" + (who.equals("server") ? "localhost"
                    : "quaestor-test-client"), "-config", "ext.cnf");
            t.openssl("x509", "-req", "-in", who + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", who + ".pem",
                    "-days", "365", "-extfile", "ext.cnf", "-extensions", who);
        }
        t.openssl("pkcs12", "-export", "-in", "server.pem", "-inkey", "server.key", "-out", "server.p12", "-passout", "pass:" + PASSWORD);
        t.openssl("pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-out", "client.p12", "-passout", "pass:" + PASSWORD);
        return t;
    }

    public Path ca() {
        return dir.resolve("ca.pem");
    }

    public Path serverKeyStore() {
        return dir.resolve("server.p12");
    }

    public Path clientCertificate() {
        return dir.resolve("client.pem");
    }

    /** The client's certificate and key as a PKCS#12 key store (password {@link #PASSWORD}). */
    public Path clientKeyStore() {
        return dir.resolve("client.p12");
    }

    /** An SSL context that trusts the CA and, if {@code withClientCertificate}, presents the client's certificate. */
    public javax.net.ssl.SSLContext clientContext(boolean withClientCertificate) throws Exception {
        javax.net.ssl.KeyManager[] keys = null;
        if (withClientCertificate) {
            var ks = java.security.KeyStore.getInstance("PKCS12");
            try (var in = Files.newInputStream(clientKeyStore())) {
                ks.load(in, PASSWORD.toCharArray());
            }
            var kmf = javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, PASSWORD.toCharArray());
            keys = kmf.getKeyManagers();
        }
        var ssl = javax.net.ssl.SSLContext.getInstance("TLS");
        ssl.init(keys, trustingTheCa(), null);
        return ssl;
    }

    /** Trust managers that trust the CA and nothing else. */
    public javax.net.ssl.TrustManager[] trustingTheCa() throws Exception {
        var trust = java.security.KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (var in = Files.newInputStream(ca())) {
            trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        var tmf = javax.net.ssl.TrustManagerFactory.getInstance(javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf.getTrustManagers();
    }

    /** The client's private key, PKCS#8 PEM. */
    public Path clientKey() {
        return dir.resolve("client.key");
    }

    private void openssl(String... args) throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add("openssl");
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IOException("openssl " + String.join(" ", args) + " failed: " + out);
        }
    }
}
