package dev.quaestor.pipeline;

/**
 * The protocol revision a request speaks, as the request path knows it: what it needs of the revision, without
 * knowing the protocol itself.
 *
 * @param name the revision's name, recorded in every audit record of the request ({@code 2025-11-25}, {@code 2026-07-28})
 * @param codes the error code the revision answers each {@link Reason} with
 * @param canonicalUrisOnly a URI not already in canonical form is refused ({@link Reason#INVALID_URI}) instead of
 *        being canonicalised, so that the URI a proxy saw in a header, the one policy judges and the one in the
 *        audit record are the same string
 * @param declaresCacheScope the revision's results declare a cache scope and a time to live ({@link CacheHint}); the
 *        scope is then recorded in the request's {@code OUTCOME}
 */
public record Protocol(String name, ReasonCodes codes, boolean canonicalUrisOnly, boolean declaresCacheScope) {
}
