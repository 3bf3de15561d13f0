package dev.quaestor.cases;

/**
 * Puts a change to a case on record: an {@code ADMIN} record, allowed, under {@code uri}, with {@code outcome}
 * ({@code ok} for a change about to be stored; {@code error}, or a refusal's outcome, for one recorded as {@code ok}
 * and then not stored; see {@link ChangeCommit}). Throws when the record cannot be committed. Returns the request id of the record.
 */
@FunctionalInterface
public interface ChangeRecorder {

    String record(String uri, String outcome, String detail);
}
