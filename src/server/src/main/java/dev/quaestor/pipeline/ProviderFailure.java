package dev.quaestor.pipeline;

/**
 * A provider call stopped by its mount's guard rather than by the provider: past the time box,
 * refused by a full bulkhead, refused while the circuit breaker is open, or refused because its subject
 * holds its whole share of the mount's bulkhead already.
 */
public class ProviderFailure extends RuntimeException {

    public enum Kind {
        TIMEOUT("timeout"), BULKHEAD_FULL("bulkhead-full"), CIRCUIT_OPEN("circuit-open"),
        /** The subject's calls in flight on the mount are at its share of the bulkhead ({@code subject-share}). */
        SUBJECT_SHARE("subject-share");

        final String outcome;

        Kind(String outcome) {
            this.outcome = outcome;
        }
    }

    private final Kind kind;
    private final String mount;
    private final long timeoutMs;
    private final int share;

    ProviderFailure(Kind kind, String mount, long timeoutMs, Throwable cause) {
        this(kind, mount, timeoutMs, 0, cause);
    }

    /** {@code share}: for {@link Kind#SUBJECT_SHARE}, the calls one subject may have in flight on the mount. */
    ProviderFailure(Kind kind, String mount, long timeoutMs, int share, Throwable cause) {
        super(kind.outcome + " on mount " + mount, cause);
        this.kind = kind;
        this.mount = mount;
        this.timeoutMs = timeoutMs;
        this.share = share;
    }

    public Kind kind() {
        return kind;
    }

    public String mount() {
        return mount;
    }

    public long timeoutMs() {
        return timeoutMs;
    }

    /** The calls one subject may have in flight on the mount (for {@link Kind#SUBJECT_SHARE}; else 0). */
    public int share() {
        return share;
    }
}
