package dev.quaestor.policy;

/** What holds for every URI at or below a prefix, so listings need not judge each entry. */
public enum SubtreeVerdict {
    /** Every URI below is allowed. */
    ALLOW_ALL,
    /** Every URI below is denied. */
    DENY_ALL,
    /** It depends on the URI: judge each one. */
    MIXED
}
