package dev.quaestor.subscription;

/** The subscription store (the database) could not answer. */
public class SubscriptionStoreException extends RuntimeException {

    public SubscriptionStoreException(String what, Throwable cause) {
        super(what + " failed: " + cause.getMessage(), cause);
    }
}
