package dev.quaestor.pipeline;

import dev.quaestor.provider.ContentTooLargeException;
import dev.quaestor.provider.InvalidCursorException;
import dev.quaestor.provider.ResourceNotFoundException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * A serve step's failure (a provider's, or its guard's) as the request's {@code OUTCOME} names it and the caller is
 * answered: a time box is {@link Reason#TIMED_OUT}, a full bulkhead or an open circuit {@link Reason#UNAVAILABLE}, and
 * anything not foreseen an {@link Reason#INTERNAL} error that says nothing of its cause.
 */
record FailedStep(String outcome, Refusal refusal) {

    private static final Logger LOG = Logger.getLogger(FailedStep.class);

    static FailedStep of(RuntimeException e, String uri, String requestId) {
        if (e instanceof ProviderFailure f) {
            var data = Refusal.uriData(uri);
            if (f.kind() == ProviderFailure.Kind.TIMEOUT) {
                data.put("timeoutMs", f.timeoutMs());
                return new FailedStep(f.kind().outcome, new Refusal(Reason.TIMED_OUT, "Request timed out", data));
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
