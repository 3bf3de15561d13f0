package dev.quaestor.console;

import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/** The HMAC key that signs the console's CSRF tokens, and the signing itself. */
@ApplicationScoped
public class ConsoleKeys {

    private static final Logger LOG = Logger.getLogger(ConsoleKeys.class);
    private final byte[] key;

    ConsoleKeys(ConsoleConfig config,
            @ConfigProperty(name = "quarkus.oidc.console.credentials.secret") Optional<String> clientSecret) {
        String material = config.secret().orElse(clientSecret.filter(s -> !s.isBlank()).orElse(null));
        if (material == null) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            material = Base64.getEncoder().encodeToString(random);
            LOG.warn("quaestor.console.secret is not set and the console has no client secret: console forms are "
                    + "bound to this process (set the same quaestor.console.secret on every replica)");
        }
        try {
            key = MessageDigest.getInstance("SHA-256").digest(("quaestor-console\n" + material).getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Base64url HMAC-SHA-256 of {@code text}. */
    public String sign(String text) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code signature} is {@link #sign}'s answer for {@code text}, compared in constant time. */
    public boolean verify(String text, String signature) {
        return signature != null && MessageDigest.isEqual(sign(text).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }

    /** Random base64url text of {@code bytes} bytes. */
    public static String random(int bytes) {
        byte[] b = new byte[bytes];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
