package dev.quaestor.support;

import dev.quaestor.testtsa.OpensslTsa;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * For tests whose profile anchors checkpoints: OpenSSL's time-stamping authority behind {@link TsaServer} (https,
 * client certificate and basic credentials required), and the server's configuration to use it, as an operator
 * would set it: the TSA's URL, its pinned root, the credentials, and a TLS configuration of Quarkus's registry
 * with the client certificate.
 */
public class TestTsa implements QuarkusTestResourceLifecycleManager {

    private static volatile TsaServer server;

    /** The running TSA (while a test of such a profile runs). */
    public static TsaServer server() {
        return server;
    }

    @Override
    public Map<String, String> start() {
        try {
            Path dir = Files.createTempDirectory("quaestor-test-tsa");
            TlsFiles tls = TlsFiles.create(dir.resolve("tls"));
            server = TsaServer.start(OpensslTsa.create(dir.resolve("tsa"), "Quaestor Test TSA"), tls);
            var c = new HashMap<String, String>();
            c.put("quaestor.audit.anchor.tsa-url", server.url().toString());
            c.put("quaestor.audit.anchor.tsa-ca", server.root().toString());
            c.put("quaestor.audit.anchor.username", TsaServer.USER);
            c.put("quaestor.audit.anchor.password", TsaServer.PASSWORD);
            c.put("quaestor.audit.anchor.tls-configuration-name", "tsa");
            c.put("quarkus.tls.tsa.trust-store.pem.certs", tls.ca().toString());
            c.put("quarkus.tls.tsa.key-store.pem.0.cert", tls.clientCertificate().toString());
            c.put("quarkus.tls.tsa.key-store.pem.0.key", tls.clientKey().toString());
            return c;
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the test TSA: " + e.getMessage(), e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
