package dev.quaestor.pipeline;

/**
 * A provider call stopped by its mount's guard rather than by the provider: past the time box,
 * refused by a full bulkhead, or refused while the circuit breaker is open.
 */
public class ProviderFailure extends RuntimeException {

    public enum Kind {
        TIMEOUT("timeout"), BULKHEAD_FULL("bulkhead-full"), CIRCUIT_OPEN("circuit-open");

        final String outcome;

        Kind(String outcome) {
            this.outcome = outcome;
        }
    }

    private final Kind kind;
    private final String mount;
    private final long timeoutMs;

    ProviderFailure(Kind kind, String mount, long timeoutMs, Throwable cause) {
        super(kind.outcome + " on mount " + mount, cause);
        this.kind = kind;
        this.mount = mount;
        this.timeoutMs = timeoutMs;
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
}
