package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.ResourceNotFoundException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * A serve step's failure (a provider's, or its guard's) as the request's {@code OUTCOME} names it ({@code detail}: what
 * the record alone says of it) and the caller is answered: a time box is {@link Reason#TIMED_OUT}, a full bulkhead or an
 * open circuit {@link Reason#UNAVAILABLE}, a subject at its share of the mount's bulkhead {@link Reason#RATE_LIMITED}
 * (its own bound, as the per-subject caps are: retry after {@value #SHARE_RETRY_SECONDS} s), and anything not foreseen
 * an {@link Reason#INTERNAL} error that says nothing of its cause.
 */
record FailedStep(String outcome, String detail, Refusal refusal) {

    private static final Logger LOG = Logger.getLogger(FailedStep.class);

    /** When a subject refused at its share of a bulkhead is asked to try again, in seconds. */
    static final int SHARE_RETRY_SECONDS = 1;

    FailedStep(String outcome, Refusal refusal) {
        this(outcome, null, refusal);
    }

    static FailedStep of(RuntimeException e, String uri, String requestId) {
        if (e instanceof ProviderFailure f) {
            var data = Refusal.uriData(uri);
            if (f.kind() == ProviderFailure.Kind.TIMEOUT) {
                data.put("timeoutMs", f.timeoutMs());
                return new FailedStep(f.kind().outcome, new Refusal(Reason.TIMED_OUT, "Request timed out", data));
            }
            if (f.kind() == ProviderFailure.Kind.SUBJECT_SHARE) {
                data.put("retryAfterSeconds", SHARE_RETRY_SECONDS);
                return new FailedStep(f.kind().outcome, "at most " + f.share() + " calls per subject in flight on mount "
                        + f.mount(), new Refusal(Reason.RATE_LIMITED,
                                "Too many requests of this caller in flight for this content source", data));
            }
            String why = f.kind() == ProviderFailure.Kind.BULKHEAD_FULL
                    ? "too many requests in flight for this content source" : "the content source is failing";
            return new FailedStep(f.kind().outcome, new Refusal(Reason.UNAVAILABLE, "Service unavailable: " + why, data));
        }
        if (e instanceof ResourceNotFoundException) {
            return new FailedStep("not-found", new Refusal(Reason.NOT_FOUND, "Resource not found", Refusal.uriData(uri)));
        }
        if (e instanceof InvalidCursorException) {
            return new FailedStep("invalid-cursor", new Refusal(Reason.INVALID_ARGUMENT, "Invalid cursor", Map.of()));
        }
        if (e instanceof ContentTooLargeException big) {
            var data = Refusal.uriData(uri);
            data.put("maxBytes", big.maxBytes());
            if (big.size() >= 0) {
                data.put("size", big.size());
            }
            return new FailedStep("too-large", new Refusal(Reason.TOO_LARGE, "Resource too large: "
                    + (big.size() >= 0 ? big.size() + " bytes exceeds" : "it exceeds") + " this mount's limit of "
                    + big.maxBytes() + " bytes", data));
        }
        LOG.errorf(e, "provider failure for request %s", requestId);
        return new FailedStep("error", new Refusal(Reason.INTERNAL, "Internal error", Map.of()));
    }
}
