package dev.quaestor.audit;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "quaestor.audit")
public interface AuditConfig {

    /** This writer's log; one per replica. Defaults to the host (pod) name. */
    Optional<String> chainId();

    /**
     * The name checkpoints are signed under (the C2SP key name); each writer's log has the origin
     * {@code <log-name>/<chain-id>}. Use a name that says whose logs these are, e.g. {@code audit.example.org/quaestor}.
     */
    @WithDefault("quaestor.audit")
    String logName();

    /**
     * Verifier keys trusted besides the current signing key's (retired keys, after a rotation), as C2SP
     * verifier key strings. Only these and the current key are trusted: never a key found in the database.
     */
    Optional<java.util.List<String>> trustedKeys();

    /** A file of such verifier keys, one per line ({@code #} starts a comment): a mounted Secret or ConfigMap. */
    Optional<String> trustedKeysFile();

    /** Records waiting to be committed; when full, requests are refused (-32005) rather than buffered. */
    @WithDefault("10000")
    int queueCapacity();

    /** Most records committed in one transaction. */
    @WithDefault("500")
    int maxBatch();

    /** How long a request waits for its records to commit before failing closed. */
    @WithDefault("5S")
    Duration commitTimeout();

    /** Sign the chain head after this many records... */
    @WithDefault("1000")
    int checkpointEvery();

    /** ...or after this long, whichever comes first (only if records were added). */
    @WithDefault("10S")
    Duration checkpointInterval();

    /** Ed25519 private key, PKCS#8, base64 (e.g. from a Kubernetes Secret). Required in prod. */
    Optional<String> signingKey();

    /** File holding the key instead (a mounted Secret). */
    Optional<String> signingKeyFile();

    /** Generate a throw-away key when none is configured (dev and test only). */
    @WithDefault("false")
    boolean generateKey();

    /** Fields stored as HMAC-SHA-256 instead of in clear (any of ip, ua, client, tenant, session). */
    java.util.Optional<java.util.List<String>> hashedFields();

    /** Key for hashed fields, base64 (from a Secret). Required if hashed-fields is set. */
    Optional<String> hmacKey();

    /** Role for the auditor API. */
    @WithDefault("quaestor-auditor")
    String auditorRole();

    /** Refused requests past a subject's attempt limit, merged into summaries ({@link RefusalRecorder}). */
    Attempts attempts();

    interface Attempts {
        /** Refusals a subject may have recorded one by one in a burst; past it, they are merged. */
        @WithDefault("30")
        long limit();

        /** The burst refills over this period. */
        @WithDefault("60s")
        Duration period();

        /**
         * Refusals past the limit with the same subject (or, without one, source address), client and reason are
         * merged into one record per window; each is answered once that record has committed. At most 1 s.
         */
        @WithDefault("1s")
        Duration mergeWindow();
    }
}
