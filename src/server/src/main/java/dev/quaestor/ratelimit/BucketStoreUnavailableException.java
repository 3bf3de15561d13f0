package dev.quaestor.ratelimit;

/** The bucket store could not answer (Redis down, slow past its bound, or not yet connected). */
public class BucketStoreUnavailableException extends RuntimeException {

    public BucketStoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
