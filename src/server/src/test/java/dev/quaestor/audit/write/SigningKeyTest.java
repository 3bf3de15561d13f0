package dev.quaestor.audit.write;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.config.AuditConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A signing key that is not an Ed25519 private key stops the start naming where it came from and what it must be. */
class SigningKeyTest {

    private static AuditConfig config(Map<String, String> values) {
        return new SmallRyeConfigBuilder().addDefaultInterceptors().withMapping(AuditConfig.class)
                .withConverter(Duration.class, 100, new DurationConverter())
                .withSources(new PropertiesConfigSource(values, "test", 400)).build().getConfigMapping(AuditConfig.class);
    }

    @Test
    void anRsaKeyOrAFileOfNoKeyIsRefusedNamingItsSettingAndTheKindOfKeyNeeded(@TempDir Path tmp) throws Exception {
        String rsa = Base64.getEncoder().encodeToString(
                KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate().getEncoded());
        var inline = assertThrows(IllegalStateException.class,
                () -> SigningKey.load(config(Map.of("quaestor.audit.signing-key", rsa))));
        assertTrue(inline.getMessage().startsWith("invalid audit signing key in QUAESTOR_AUDIT_SIGNING_KEY"
                + " (quaestor.audit.signing-key): it must be an Ed25519 private key in PKCS#8 PEM"), inline.getMessage());

        Path garbage = Files.writeString(tmp.resolve("audit-signing-key"), "not a key\n");
        var file = assertThrows(IllegalStateException.class,
                () -> SigningKey.load(config(Map.of("quaestor.audit.signing-key-file", garbage.toString()))));
        assertTrue(file.getMessage().startsWith("invalid audit signing key in QUAESTOR_AUDIT_SIGNING_KEY_FILE"
                + " (quaestor.audit.signing-key-file) " + garbage + ": it must be an Ed25519"), file.getMessage());
    }
}
