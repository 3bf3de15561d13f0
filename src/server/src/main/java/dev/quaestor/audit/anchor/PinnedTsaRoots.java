package dev.quaestor.audit.anchor;

import dev.quaestor.audit.config.AuditConfig;

import dev.quaestor.evidence.check.TimeStampCheck;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Optional;

/**
 * The time-stamping authority's root certificates, pinned in configuration ({@code quaestor.audit.anchor.tsa-ca},
 * a mounted Secret or ConfigMap): what a token must chain to before the anchorer stores it, and what the online
 * check holds tokens to. As with signing keys, a certificate the database or a token names is never trusted for
 * being there.
 */
@ApplicationScoped
public class PinnedTsaRoots {

    private final Optional<TimeStampCheck> check;

    PinnedTsaRoots(AuditConfig config) {
        this.check = load(config.anchor());
    }

    static Optional<TimeStampCheck> load(AuditConfig.Anchor config) {
        if (config.tsaCa().isEmpty()) {
            if (config.tsaUrl().isPresent()) {
                throw new IllegalStateException("quaestor.audit.anchor.tsa-url is set but quaestor.audit.anchor.tsa-ca is not: "
                        + "name the PEM file of the time-stamping authority's root, which every token must chain to");
            }
            return Optional.empty();
        }
        Path file = Path.of(config.tsaCa().get());
        try (InputStream in = Files.newInputStream(file)) {
            var roots = TimeStampCheck.certificates(in);
            if (roots.isEmpty()) {
                throw new IllegalStateException("quaestor.audit.anchor.tsa-ca: " + file + " holds no certificate");
            }
            return Optional.of(new TimeStampCheck(roots, config.maxDelay()));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("quaestor.audit.anchor.tsa-ca: cannot read the certificates in " + file + ": "
                    + e.getMessage(), e);
        }
    }

    /** The check of tokens against the pinned roots; empty if none are pinned. */
    public Optional<TimeStampCheck> check() {
        return check;
    }
}
