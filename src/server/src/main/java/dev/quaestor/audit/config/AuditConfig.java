package dev.quaestor.audit.config;

import dev.quaestor.settings.RangeChecked;
import dev.quaestor.settings.SettingRanges;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "quaestor.audit")
public interface AuditConfig extends RangeChecked {

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

    /**
     * The share (more than 0, at most 1) of {@link #queueCapacity} one subject's waiting records may take; past it
     * that subject's records are refused (-32005) while others still get in. Summaries of refusals are not counted.
     */
    @WithDefault("0.1")
    double queueShare();

    /**
     * How long one statement of an audit read may run (search, proofs, a page of an export or a verify, the daily
     * review's queries), in milliseconds: the {@code statement_timeout} of the audit-read pool (H2: its
     * {@code QUERY_TIMEOUT}). A search past it is answered 503, saying what to narrow.
     */
    @WithName("query-timeout-ms")
    @WithDefault("10000")
    long queryTimeoutMs();

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

    /**
     * The distinct decision facts one {@code /audit/facts} call may gather (they are held whole before the answer
     * starts); past it the call is refused and asks for a narrower window.
     */
    @WithDefault("200000")
    int factsLimit();

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

    /** Anchoring checkpoints with RFC 3161 time-stamps from a time-stamping authority (docs/audit.md). */
    Anchor anchor();

    /** {@code quaestor.audit.anchor.*} */
    interface Anchor {

        /**
         * The time-stamping authority (RFC 3161 over HTTP: POST {@code application/timestamp-query}). Unset:
         * checkpoints are not anchored.
         */
        Optional<java.net.URI> tsaUrl();

        /**
         * PEM file of the TSA root certificate(s) tokens must chain to (a mounted Secret or ConfigMap): each token
         * is checked against them before it is stored, and {@code /audit/verify} checks tokens against them.
         * Required with {@code tsa-url}.
         */
        Optional<String> tsaCa();

        /** HTTP basic credentials, if the TSA asks for them (sent over https only). */
        Optional<String> username();

        Optional<String> password();

        /**
         * A TLS configuration of Quarkus's TLS registry ({@code quarkus.tls.<name>.*}) for the TSA's https: the
         * trust store for its server certificate and, for mutual TLS, the key store with this server's client
         * certificate. Unset: the JDK's trusted CAs, no client certificate.
         */
        Optional<String> tlsConfigurationName();

        /** Anchor every Nth checkpoint. Neither this nor {@code interval}: every checkpoint. */
        Optional<Integer> every();

        /** Anchor the first checkpoint signed this long after the last anchored one (with {@code every}: whichever first). */
        Optional<Duration> interval();

        /** The TSA policy (an OID) to ask for; unset: the TSA's default. */
        Optional<String> policy();

        /**
         * How long after its checkpoint a token may be made. A checkpoint older than this is not anchored (its token
         * would not verify); a later one vouches for its records. Verifiers use the same {@code --tsa-max-delay}.
         */
        @WithDefault("1H")
        Duration maxDelay();

        /** How long one request to the TSA may take, connection and the whole answer included. */
        @WithDefault("10S")
        Duration timeout();

        /** How often the anchorer looks for checkpoints to anchor, and tries again after the TSA did not answer. */
        @WithDefault("2S")
        Duration poll();
    }

    /**
     * Allowed ranges: every count and size at least 1, {@code attempts.limit} 0 or more, every duration more than 0,
     * {@code attempts.merge-window} at most 1s.
     */
    @Override
    default void checkRanges(SettingRanges r) {
        String p = "quaestor.audit.";
        r.atLeast(p + "queue-capacity", queueCapacity(), 1)
                .atLeast(p + "query-timeout-ms", queryTimeoutMs(), 1)
                .atLeast(p + "max-batch", maxBatch(), 1)
                .positive(p + "commit-timeout", commitTimeout())
                .atLeast(p + "checkpoint-every", checkpointEvery(), 1)
                .positive(p + "checkpoint-interval", checkpointInterval())
                .atLeast(p + "facts-limit", factsLimit(), 1)
                .atLeast(p + "attempts.limit", attempts().limit(), 0)
                .positive(p + "attempts.period", attempts().period())
                .positiveAtMost(p + "attempts.merge-window", attempts().mergeWindow(), Duration.ofSeconds(1))
                .positive(p + "anchor.max-delay", anchor().maxDelay())
                .positive(p + "anchor.timeout", anchor().timeout())
                .positive(p + "anchor.poll", anchor().poll());
        anchor().every().ifPresent(n -> r.atLeast(p + "anchor.every", n, 1));
        anchor().interval().ifPresent(d -> r.positive(p + "anchor.interval", d));
    }
}
