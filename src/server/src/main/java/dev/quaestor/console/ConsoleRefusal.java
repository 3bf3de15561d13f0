package dev.quaestor.console;

/**
 * A console request refused, or a page that found nothing to show, after it was recorded: shown as a page with its
 * status, the record's request id and a link back ({@link #back()}, else the page the person came from).
 */
public class ConsoleRefusal extends RuntimeException {

    private final int status;
    private final String requestId;
    private final long retryAfterSeconds;
    private final String retry;
    private final String back;

    public ConsoleRefusal(int status, String message, String requestId) {
        this(status, message, requestId, 0, null, null);
    }

    /** This refusal, its page linking back to {@code address} (a console address: the case, request or search it was about). */
    public ConsoleRefusal backTo(String address) {
        return new ConsoleRefusal(status, getMessage(), requestId, retryAfterSeconds, retry, address);
    }

    /**
     * A refusal to try again after {@code retryAfterSeconds} (sent as {@code Retry-After} when above 0), at the
     * address {@code retry} (a page's own address, null when there is none to offer).
     */
    public ConsoleRefusal(int status, String message, String requestId, long retryAfterSeconds, String retry) {
        this(status, message, requestId, retryAfterSeconds, retry, null);
    }

    private ConsoleRefusal(int status, String message, String requestId, long retryAfterSeconds, String retry, String back) {
        super(message, null, false, false);
        this.back = back;
        this.status = status;
        this.requestId = requestId;
        this.retryAfterSeconds = retryAfterSeconds;
        this.retry = retry;
    }

    /** The console address the page links back to, or null: then the page the person came from. */
    public String back() {
        return back;
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
