package dev.quaestor.audit.write;

import dev.quaestor.audit.config.AuditConfig;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.write.NoteSigner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import org.jboss.logging.Logger;

/** The Ed25519 key that signs checkpoints, from config or a mounted Secret (or generated in dev/test). */
public final class SigningKey {

    private static final Logger LOG = Logger.getLogger(SigningKey.class);

    private final PrivateKey privateKey;
    private final PublicKey publicKey;
    private final VerifierKey verifierKey;

    private SigningKey(PrivateKey privateKey, PublicKey publicKey, String name) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
        this.verifierKey = VerifierKey.of(name, publicKey);
    }

    public static SigningKey load(AuditConfig config) {
        String name = config.logName();
        String from = config.signingKey().isPresent() ? "QUAESTOR_AUDIT_SIGNING_KEY (quaestor.audit.signing-key)"
                : config.signingKeyFile().map(f -> "QUAESTOR_AUDIT_SIGNING_KEY_FILE (quaestor.audit.signing-key-file) "
                        + f).orElse("the generated key");
        try {
            String pkcs8 = config.signingKey().orElse(null);
            if (pkcs8 == null && config.signingKeyFile().isPresent()) {
                Path file = Path.of(config.signingKeyFile().get());
                if (!Files.exists(file) && config.generateKey()) {
                    // Dev mode keeps its generated key, so its log verifies with one key across restarts.
                    KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                    Files.createDirectories(file.toAbsolutePath().getParent());
                    Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n"
                            + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(kp.getPrivate().getEncoded())
                            + "\n-----END PRIVATE KEY-----\n");
                    LOG.warnf("audit checkpoints are signed with a key generated for development in %s (never use it for real)", file);
                }
                if (!Files.exists(file)) {
                    throw new IllegalStateException("no audit signing key at " + file + ": set QUAESTOR_AUDIT_SIGNING_KEY_FILE "
                            + "(quaestor.audit.signing-key-file) to an Ed25519 private key file (PKCS#8 PEM), or give the "
                            + "key itself in QUAESTOR_AUDIT_SIGNING_KEY (quaestor.audit.signing-key)");
                }
                pkcs8 = Files.readString(file);
            }
            if (pkcs8 != null) {
                KeyFactory kf = KeyFactory.getInstance("Ed25519");
                PrivateKey priv = kf.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(strip(pkcs8))));
                return new SigningKey(priv, publicFrom(priv), name);
            }
            if (!config.generateKey()) {
                throw new IllegalStateException("no audit signing key: set QUAESTOR_AUDIT_SIGNING_KEY_FILE "
                        + "(quaestor.audit.signing-key-file) or QUAESTOR_AUDIT_SIGNING_KEY (quaestor.audit.signing-key)");
            }
            KeyPair kp = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            LOG.warn("audit checkpoints are signed with a generated throw-away key (dev/test only)");
            return new SigningKey(kp.getPrivate(), kp.getPublic(), name);
        } catch (IllegalStateException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("the audit signing key in " + from + " could not be read (or, generated for"
                    + " development, written): " + e, e);
        } catch (Exception e) {
            throw new IllegalStateException("invalid audit signing key in " + from + ": it must be an Ed25519 private key"
                    + " in PKCS#8 PEM (openssl genpkey -algorithm ed25519); " + e.getMessage(), e);
        }
    }

    /**
     * The JDK has no call that derives an Ed25519 public key from a private one, but its key-pair
     * generator derives the pair from 32 random bytes: feeding it the private key's bytes yields the same pair.
     */
    private static PublicKey publicFrom(PrivateKey priv) throws Exception {
        var spec = ((java.security.interfaces.EdECPrivateKey) priv).getBytes().orElseThrow();
        var kpg = KeyPairGenerator.getInstance("Ed25519");
        kpg.initialize(java.security.spec.NamedParameterSpec.ED25519, new FixedRandom(spec));
        return kpg.generateKeyPair().getPublic();
    }

    private static String strip(String pem) {
        return pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }

    /** Signs a checkpoint of {@code origin}'s tree. */
    Checkpoint checkpoint(String origin, long size, byte[] root, Instant time) {
        return NoteSigner.checkpoint(origin, size, root, time, verifierKey, privateKey);
    }

    /** The public key, X.509, base64. */
    public String publicKeyBase64() {
        return Base64.getEncoder().encodeToString(publicKey.getEncoded());
    }

    /** The public half, as a C2SP verifier key: what a verifier pins. */
    public VerifierKey verifierKey() {
        return verifierKey;
    }

    /** Feeds the private key bytes to the generator so that it reproduces the same key pair. */
    private static final class FixedRandom extends java.security.SecureRandom {
        private final byte[] bytes;

        FixedRandom(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public void nextBytes(byte[] out) {
            System.arraycopy(bytes, 0, out, 0, Math.min(bytes.length, out.length));
        }
    }
}
