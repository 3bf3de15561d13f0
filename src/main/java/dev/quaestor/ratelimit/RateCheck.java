package dev.quaestor.ratelimit;

/**
 * The outcome of consuming one token from every limit that applies to a request. When several
 * limits apply, {@code limitId}, {@code capacity}, {@code remaining} and {@code windowSeconds}
 * describe the tightest one (the rejecting one, if rejected).
 */
public record RateCheck(boolean allowed, String limitId, long capacity, long remaining, long windowSeconds,
        long retryAfterSeconds) {

    public static final RateCheck UNLIMITED = new RateCheck(true, null, 0, 0, 0, 0);

    /** Whole seconds, rounded up and never 0, as Retry-After requires. */
    public static long retryAfterSeconds(long nanosToWait) {
        long s = (nanosToWait + 999_999_999L) / 1_000_000_000L;
        return Math.max(1, s);
    }
}
