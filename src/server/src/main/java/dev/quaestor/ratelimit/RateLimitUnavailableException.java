package dev.quaestor.ratelimit;

/** A {@code fail: closed} limit applies and its bucket store cannot answer: the request must be refused. */
public class RateLimitUnavailableException extends RuntimeException {

    private final String limitId;

    public RateLimitUnavailableException(String limitId, Throwable cause) {
        super("rate-limit store unavailable for limit '" + limitId + "'", cause);
        this.limitId = limitId;
    }

    public String limitId() {
        return limitId;
    }
}
