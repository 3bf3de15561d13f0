package dev.quaestor.pipeline;

/**
 * Why the request path stopped a request. The protocol layer turns each into its own error (a
 * JSON-RPC code, an HTTP status); the audit record keeps the code the caller was answered with.
 */
public enum Reason {
    /** The policy refused: the same answer whether or not the resource exists. */
    DENIED,
    /** The URI has no canonical form. */
    INVALID_URI,
    /** An argument the request path checks itself: a cursor it did not issue, an unknown template or argument. */
    INVALID_ARGUMENT,
    NOT_FOUND,
    /** The session holds as many subscriptions as it may. */
    TOO_MANY_SUBSCRIPTIONS,
    RATE_LIMITED,
    /** The provider did not answer within its mount's time box. */
    TIMED_OUT,
    /** Cannot be served now: the audit log or a store cannot commit, a circuit is open, a bulkhead is full. */
    UNAVAILABLE,
    /** The content exceeds its mount's {@code max-bytes}. */
    TOO_LARGE,
    INTERNAL
}
