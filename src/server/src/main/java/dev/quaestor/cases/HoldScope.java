package dev.quaestor.cases;

/** What a legal hold covers, within its time range. */
public enum HoldScope {
    /** The records of the requests its case holds. */
    CASE,
    /** Every record of one subject. */
    SUBJECT,
    /** Every record whose uri starts with a prefix. */
    URI_PREFIX
}
