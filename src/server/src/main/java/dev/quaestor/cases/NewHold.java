package dev.quaestor.cases;

/**
 * A hold as asked for: its scope ({@code CASE}, {@code SUBJECT}, {@code URI_PREFIX}), the subject or prefix (none for
 * {@code CASE}), its time range as ISO-8601 instants ({@code to} may be absent: no end) and why it is put.
 */
public record NewHold(String scope, String target, String from, String to, String reason) {
}
