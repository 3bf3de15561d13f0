package dev.quaestor.pipeline;

/**
 * The error code a protocol revision answers a {@link Reason} with. The request path records it in
 * the audit trail, so a record says exactly what the caller was told.
 */
@FunctionalInterface
public interface ReasonCodes {

    int codeFor(Reason reason);
}
