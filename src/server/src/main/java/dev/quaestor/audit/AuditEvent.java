package dev.quaestor.audit;

import java.time.Instant;
import java.util.List;

/**
 * One audit record. A served request leaves two, linked by {@code requestId}: a {@code DECISION}
 * (what was decided, under which rules and revision) and an {@code OUTCOME} (what was disclosed).
 * The {@code DECISION} is queued before the provider is called; nothing is released before both
 * are committed.
 *
 * @param rules deciding policy rule ids
 * @param items number of entries disclosed by a listing
 * @param detail free text for events that are not requests (a policy refusal's errors)
 * @param contentSha256 hex SHA-256 of exactly the bytes served (before any base64 encoding)
 */
public record AuditEvent(Instant time, String requestId, Kind kind, Caller caller, String method, String action,
        String uri, String decision, List<String> rules, String policyRevision, String outcome, Integer errorCode,
        Long bytes, Integer items, String contentSha256, Long latencyMicros, String detail) {

    public enum Kind { DECISION, OUTCOME, AUTHENTICATION, POLICY, AUDIT_READ }

    public AuditEvent {
        rules = rules == null ? List.of() : List.copyOf(rules);
    }
}
