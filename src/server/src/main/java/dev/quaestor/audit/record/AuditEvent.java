package dev.quaestor.audit.record;

import java.time.Instant;
import java.util.List;

/**
 * One audit record, as the rest of the server reports it; {@code docs/audit-format.md} defines how it
 * is stored and hashed. A served request leaves two, linked by {@code requestId}: a {@code DECISION}
 * (what was decided, under which rules and revision) and an {@code OUTCOME} (what was disclosed). The
 * {@code DECISION} is queued before the provider is called; nothing is released before both are
 * committed. Build one with {@link #of}.
 *
 * @param protocol the MCP protocol revision the request spoke, if any
 * @param rules deciding policy rule ids
 * @param items number of entries disclosed by a listing
 * @param contentSha256 hex SHA-256 of exactly the bytes served (before any base64 encoding)
 * @param cacheScope the cache scope the response declared ({@code private} for resource content)
 * @param count for an {@link Kind#ATTEMPT_SUMMARY} or {@link Kind#AUDIT_PAUSE}: how many events it stands for
 * @param first the first of those events
 * @param last the last of those events
 * @param uris for a summary of refused attempts: the URIs its events named, each with its count, in the
 *             record's {@code uris} form (docs/audit-format.md; {@link UriTally} writes it)
 * @param urisMore for such a summary: how many of its events {@code uris} does not count
 * @param detail free text: a refusal's reason, an admin call's parameters, a policy refusal's errors
 */
public record AuditEvent(Instant time, String requestId, Kind kind, Caller caller, String protocol, String method,
        String action, String uri, String decision, List<String> rules, String policyRevision, String outcome,
        Integer errorCode, Long bytes, Integer items, String contentSha256, String cacheScope, Long latencyMicros,
        Long count, Instant first, Instant last, String uris, Long urisMore, String detail) {

    /**
     * How the {@code detail} of a rate-limit refusal ends when the request was refused before the policy was asked
     * (at the door, or a request the policy does not judge): its verdict alone would read as the policy's. Written by
     * the pipeline, read by the console.
     */
    public static final String POLICY_NOT_ASKED = "; the policy was not asked";

    /**
     * What a record is about. Each kind answers a PCI DSS v4.0.1 10.2.1 requirement (docs/audit.md has
     * the table); a name, once written, is never reused for anything else.
     */
    public enum Kind {
        /** A request's verdict under policy (10.2.1.1; a denial also 10.2.1.4). */
        DECISION,
        /** What a request disclosed: outcome, bytes, SHA-256 (10.2.1.1). */
        OUTCOME,
        /** A refused token or a missing one (10.2.1.4). */
        AUTHENTICATION,
        /** A policy set activated or refused (10.2.1.2, 10.2.1.7). */
        POLICY,
        /** A read of the audit trail: search, export, verify, proof, console view (10.2.1.3). */
        AUDIT_READ,
        /** An administrator's call: policy status, explain, key reads, review sign-off (10.2.1.2). */
        ADMIN,
        /** An MCP session opened (10.2.1.7). */
        SESSION_OPEN,
        /** An MCP session ended: by the client, by expiry or by its token's end (10.2.1.7). */
        SESSION_CLOSE,
        /** A notification sent to a client about a resource (10.2.1.1). */
        NOTIFICATION,
        /** This writer started (10.2.1.6). */
        AUDIT_START,
        /** This writer stopped, having committed its queue (10.2.1.6). */
        AUDIT_STOP,
        /** This writer could not commit for a while: how many records were refused, first and last time (10.2.1.6). */
        AUDIT_PAUSE,
        /** The checkpoint-signing key changed (10.2.1.5). */
        KEY_ROTATION,
        /**
         * Refused attempts past a limit, counted rather than recorded one by one: count, first, last, and the URIs
         * they named (10.2.1.4). Each refusal it counts was answered only once it had committed.
         */
        ATTEMPT_SUMMARY,
        /**
         * A run of the retention job: the months it archived (files, SHA-256, markers), the records it kept for which
         * legal hold, or why it refused or stopped (10.5.1, 10.7).
         */
        AUDIT_RETENTION
    }

    public AuditEvent {
        rules = rules == null ? List.of() : List.copyOf(rules);
        time = time == null ? Instant.now() : time;
    }

    public static Builder of(Kind kind, String requestId) {
        return new Builder(kind, requestId);
    }

    /**
     * A record of the same call under the same request id, now, saying it ended as {@code outcome} rather than as this
     * record says: {@code why} after its detail. It keeps who, what and the decision; it drops what was disclosed.
     */
    public AuditEvent ended(String outcome, String why) {
        return of(kind, requestId).caller(caller).protocol(protocol).method(method).action(action).uri(uri)
                .decision(decision).rules(rules).policyRevision(policyRevision).outcome(outcome)
                .detail(detail == null ? why : detail + "; " + why).build();
    }

    /** Fields left unset are absent from the record. */
    public static final class Builder {
        private final Kind kind;
        private final String requestId;
        private Instant time;
        private Caller caller;
        private String protocol;
        private String method;
        private String action;
        private String uri;
        private String decision;
        private List<String> rules;
        private String policyRevision;
        private String outcome;
        private Integer errorCode;
        private Long bytes;
        private Integer items;
        private String contentSha256;
        private String cacheScope;
        private Long latencyMicros;
        private Long count;
        private Instant first;
        private Instant last;
        private String uris;
        private Long urisMore;
        private String detail;

        private Builder(Kind kind, String requestId) {
            this.kind = kind;
            this.requestId = requestId;
        }

        public Builder time(Instant v) { time = v; return this; }
        public Builder caller(Caller v) { caller = v; return this; }
        public Builder protocol(String v) { protocol = v; return this; }
        public Builder method(String v) { method = v; return this; }
        public Builder action(String v) { action = v; return this; }
        public Builder uri(String v) { uri = v; return this; }
        public Builder decision(String v) { decision = v; return this; }
        public Builder rules(List<String> v) { rules = v; return this; }
        public Builder policyRevision(String v) { policyRevision = v; return this; }
        public Builder outcome(String v) { outcome = v; return this; }
        public Builder errorCode(Integer v) { errorCode = v; return this; }
        public Builder bytes(Long v) { bytes = v; return this; }
        public Builder items(Integer v) { items = v; return this; }
        public Builder contentSha256(String v) { contentSha256 = v; return this; }
        public Builder cacheScope(String v) { cacheScope = v; return this; }
        public Builder latencyMicros(Long v) { latencyMicros = v; return this; }
        /** For summaries: how many events, the first and the last. */
        public Builder summary(long n, Instant from, Instant to) { count = n; first = from; last = to; return this; }
        /** For summaries of refused attempts: the URIs their events named ({@link UriTally}). */
        public Builder uris(String lines, long more) { uris = lines; urisMore = more; return this; }
        public Builder detail(String v) { detail = v; return this; }

        public AuditEvent build() {
            return new AuditEvent(time, requestId, kind, caller, protocol, method, action, uri, decision, rules,
                    policyRevision, outcome, errorCode, bytes, items, contentSha256, cacheScope, latencyMicros, count,
                    first, last, uris, urisMore, detail);
        }
    }
}
