package dev.quaestor.cases;

/**
 * Puts a change to a case on record (an {@code ADMIN} record under the case's uri) before it is stored; throws when
 * the record cannot be committed, and then nothing is stored. Returns the request id of the record.
 */
@FunctionalInterface
public interface ChangeRecorder {

    String record(String uri, String detail);
}
