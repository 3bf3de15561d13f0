package dev.quaestor.pipeline;

/**
 * What a request's {@code OUTCOME} record says happened: its outcome, the error code the caller was answered with,
 * and what was disclosed (the bytes of a read and their SHA-256, or the number of items), with a detail for the
 * record. The {@link Trail} adds the rest (who, what, when, how long, the rate limiter's notes).
 */
record Outcome(String name, Integer errorCode, Long bytes, Integer items, String sha256, String detail) {

    static Outcome ok() {
        return of("ok");
    }

    static Outcome of(String name) {
        return new Outcome(name, null, null, null, null, null);
    }

    /** Exactly which bytes were disclosed (a read): how many and their SHA-256 (null if it could not be computed). */
    Outcome content(long count, String digest) {
        return new Outcome(name, errorCode, count, items, digest, detail);
    }

    /** How many entries or values were disclosed. */
    Outcome items(int count) {
        return new Outcome(name, errorCode, bytes, count, sha256, detail);
    }

    Outcome code(Integer code) {
        return new Outcome(name, code, bytes, items, sha256, detail);
    }

    Outcome detail(String text) {
        return new Outcome(name, errorCode, bytes, items, sha256, text);
    }
}
