package dev.quaestor.ratelimit;

import java.util.List;

/**
 * The outcome of consuming one token from every limit that applies to a request. When several
 * limits apply, {@code limitId}, {@code capacity}, {@code remaining} and {@code windowSeconds}
 * describe the tightest enforced one (the rejecting one, if rejected).
 *
 * @param notes what the audit record must carry although the request was admitted: shadow limits
 *              that would have rejected it and fail-open limits whose store could not answer
 */
public record RateCheck(boolean allowed, String limitId, long capacity, long remaining, long windowSeconds,
        long retryAfterSeconds, List<String> notes) {

    public static final RateCheck UNLIMITED = new RateCheck(true, null, 0, 0, 0, 0, List.of());

    public RateCheck {
        notes = List.copyOf(notes);
    }

    /** Whole seconds, rounded up and never 0, as Retry-After requires. */
    public static long retryAfterSeconds(long nanosToWait) {
        long s = (nanosToWait + 999_999_999L) / 1_000_000_000L;
        return Math.max(1, s);
    }

    /** The notes as one audit detail, or null when there are none. */
    public String auditDetail() {
        return notes.isEmpty() ? null : String.join("; ", notes);
    }
}
