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

    /**
     * Which entries or values were disclosed: how many, and the SHA-256 of their names as answered, in the order
     * answered, each followed by a line feed ({@code "file:///a.md\nfile:///b.md\n"}; for none, the SHA-256 of no
     * bytes). Whoever kept the answer can show that it is the one on record; the names themselves stay out of the log.
     */
    Outcome listed(java.util.List<String> names) {
        var text = new StringBuilder(names.size() * 64);
        for (String n : names) {
            text.append(n).append('\n');
        }
        return new Outcome(name, errorCode, bytes, names.size(),
                ResourcePipeline.sha256(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), detail);
    }

    Outcome code(Integer code) {
        return new Outcome(name, code, bytes, items, sha256, detail);
    }

    Outcome detail(String text) {
        return new Outcome(name, errorCode, bytes, items, sha256, text);
    }
}
