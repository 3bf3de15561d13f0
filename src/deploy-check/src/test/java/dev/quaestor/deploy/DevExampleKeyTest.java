package dev.quaestor.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.fabric8.kubernetes.api.model.ConfigMap;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The dev overlay's verifier key (the retention job's --trust) is the one of its example signing key, in the form
 * the verifier reads: {@code <name>+<hex key id>+base64(0x01 || key)}, the key id the first four bytes of
 * SHA-256(name || 0x0A || 0x01 || key). A wrong one makes every retention run refuse its archive.
 */
class DevExampleKeyTest {

    private static final Path DEV = Path.of(System.getProperty("quaestor.repo", "../..")).toAbsolutePath().normalize()
            .resolve("deploy/overlays/dev");

    @Test
    void theDevVerifierKeyIsTheExampleSigningKeys() throws Exception {
        String pem = Files.readString(DEV.resolve("EXAMPLE-ONLY-audit-signing-key.pem"));
        byte[] pkcs8 = Base64.getMimeDecoder().decode(pem.replaceAll("-----[A-Z ]+-----", ""));
        var priv = (EdECPrivateKey) KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(pkcs8));
        byte[] seed = priv.getBytes().orElseThrow();
        // The JDK derives an Ed25519 public key only while generating a pair: give the generator the seed as its randomness.
        var generator = KeyPairGenerator.getInstance("Ed25519");
        generator.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(seed, 0, bytes, 0, bytes.length);
            }
        });
        byte[] der = generator.generateKeyPair().getPublic().getEncoded();
        byte[] key = new byte[33];
        key[0] = 0x01;
        System.arraycopy(der, der.length - 32, key, 1, 32);
        String name = "quaestor.audit";
        var sha = MessageDigest.getInstance("SHA-256");
        sha.update((name + "\n").getBytes(StandardCharsets.UTF_8));
        sha.update(key);
        String expected = name + "+" + HexFormat.of().formatHex(Arrays.copyOf(sha.digest(), 4)) + "+"
                + Base64.getEncoder().encodeToString(key);

        ConfigMap verifier = Rendered.render(DEV).all(ConfigMap.class).stream()
                .filter(m -> m.getMetadata().getName().startsWith("quaestor-audit-verifier-key")).findFirst().orElseThrow();
        assertEquals(expected, verifier.getData().get("audit.vkey"));
    }
}
