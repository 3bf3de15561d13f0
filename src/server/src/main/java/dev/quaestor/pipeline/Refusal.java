package dev.quaestor.pipeline;

import dev.quaestor.ratelimit.RateCheck;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A request the path stopped, already audited. The message and details are written for the
 * caller (the URI, a time box, a retry delay) and never carry internal detail.
 */
public final class Refusal extends RuntimeException {

    private final Reason reason;
    private final Map<String, Object> details;
    private final RateCheck rate;

    public Refusal(Reason reason, String message, Map<String, Object> details) {
        this(reason, message, details, null);
    }

    /** {@code rate}: the limiter's answer, for a refusal that reports it (a rate-limit refusal). */
    public Refusal(Reason reason, String message, Map<String, Object> details, RateCheck rate) {
        super(message, null, false, false);
        this.reason = reason;
        this.details = details == null ? new LinkedHashMap<>() : new LinkedHashMap<>(details);
        this.rate = rate;
    }

    public Reason reason() {
        return reason;
    }

    /** Mutable copy: the protocol layer adds what it must (such as the request id). */
    public Map<String, Object> details() {
        return details;
    }

    /** The limiter's answer when this is a rate-limit refusal, else null. */
    public RateCheck rate() {
        return rate;
    }
}
