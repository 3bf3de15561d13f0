package dev.quaestor.console;

/** A console request refused after it was recorded: shown as a page with its status and the record's request id. */
public class ConsoleRefusal extends RuntimeException {

    private final int status;
    private final String requestId;
    private final long retryAfterSeconds;
    private final String retry;

    public ConsoleRefusal(int status, String message, String requestId) {
        this(status, message, requestId, 0, null);
    }

    /**
     * A refusal to try again after {@code retryAfterSeconds} (sent as {@code Retry-After} when above 0), at the
     * address {@code retry} (a page's own address, null when there is none to offer).
     */
    public ConsoleRefusal(int status, String message, String requestId, long retryAfterSeconds, String retry) {
        super(message, null, false, false);
        this.status = status;
        this.requestId = requestId;
        this.retryAfterSeconds = retryAfterSeconds;
        this.retry = retry;
    }

    /** The address to try again at, or null. */
    public String retry() {
        return retry;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    public int status() {
        return status;
    }

    public String requestId() {
        return requestId;
    }
}
