package dev.quaestor.console;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.evidence.RecordField;
import io.quarkus.qute.TemplateData;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A record field as a request's page shows it: a label a compliance officer reads, beside the format's own name
 * (docs/audit-format.md), so that either can be looked up, codes (errors, decisions, outcomes) with what they mean;
 * instants are kept on one line. The fields, their names,
 * order and kinds are the format's ({@link RecordField}); only the labels are written here.
 */
@TemplateData
public record FieldLabel(String name, String label, boolean time) {

    /** The label of each field a page lists, by the format's field. */
    private static final Map<RecordField, String> LABELS = labels();

    /**
     * The fields a page does not list among the others: the format version, the request id (the page's own title)
     * and the URIs a summary stands for (a table of their own).
     */
    private static final Set<RecordField> NOT_LISTED = EnumSet.of(RecordField.V, RecordField.REQUEST, RecordField.URIS);

    /** Every field a page lists, in the format's order, then the record's hash. */
    static final List<FieldLabel> ALL = all();

    /** What the JSON-RPC error codes on record mean. */
    private static final Map<String, String> ERRORS = Map.of(
            "-32003", "refused by the policy", "-32004", "rate limit reached", "-32005", "server busy, refused at once",
            "-32001", "the content's source did not answer in time", "-32002", "resource not found",
            "-32600", "invalid request", "-32601", "unknown method", "-32602", "invalid parameters (e.g. a URI not in canonical form)",
            "-32603", "internal error");

    /** What the policy's decisions mean. */
    private static final Map<String, String> DECISIONS = Map.of(
            "ALLOW", "the policy allowed it", "DENY", "the policy refused it",
            "FILTER", "the policy allowed it and left out what the caller may not see");

    /** What the outcomes on record mean: what actually happened once the policy had decided. */
    static final Map<String, String> OUTCOMES = Map.ofEntries(
            Map.entry("ok", "done"), Map.entry("refused", "refused by the policy; nothing served"),
            Map.entry("rate-limited", "refused: the rate limit was reached; nothing served"),
            Map.entry("rate-limit-unavailable", "refused: the rate limiter could not be asked, so it refused; nothing served"),
            Map.entry("not-found", "no such resource; nothing served"), Map.entry("timeout", "the content's source did not answer in time"),
            Map.entry("busy", "refused: too many at once"), Map.entry("forbidden", "refused: no role for it"),
            Map.entry("invalid", "refused: the request was not valid"), Map.entry("activated", "a policy revision became active"),
            Map.entry("aborted", "the answer was cut off, did not reach the client, or was refused after its record (see its detail)"),
            Map.entry("invalid-uri", "refused: not a URI; the policy was not asked"),
            Map.entry("non-canonical-uri", "refused: the URI was not written in canonical form; the policy was not asked"),
            Map.entry("parse-error", "refused: the body was not one JSON value; the policy was not asked"),
            Map.entry("invalid-request", "refused: not a request this server reads; the policy was not asked"),
            Map.entry("invalid-params", "refused: params that cannot be read; the policy was not asked"),
            Map.entry("invalid-envelope", "refused: _meta incomplete; the policy was not asked"),
            Map.entry("unsupported-version", "refused: a protocol version not spoken; the policy was not asked"),
            Map.entry("header-mismatch", "refused: the headers did not state what the body says; the policy was not asked"),
            Map.entry("session-unknown", "refused: no live session of the caller by that id; the policy was not asked"),
            Map.entry("too-large", "refused: too large (see its detail)"),
            Map.entry("unreadable", "refused: the body broke off while it was read; the policy was not asked"));

    /** Outcomes of a request refused at the door, before the policy was asked about it. */
    private static final java.util.Set<String> BEFORE_POLICY = java.util.Set.of("invalid-uri", "non-canonical-uri", "parse-error",
            "invalid-request", "invalid-params", "invalid-envelope", "unsupported-version", "header-mismatch", "session-unknown",
            "unreadable", "too-large", "too-many-subscriptions");

    /**
     * Whether a refusal with this outcome was decided before the policy was asked (a cap's refusals too). A refusal
     * at the door pays for itself before it is recorded; with the caller's bucket empty it is recorded as
     * {@code rate-limited} (or {@code rate-limit-unavailable}), its {@code detail} ending
     * {@link AuditEvent#POLICY_NOT_ASKED} (older records: with no action, where the policy's own refusals name theirs).
     */
    static boolean beforePolicy(RecordRow decision) {
        String outcome = decision.outcome();
        if (outcome.equals("rate-limited") || outcome.equals("rate-limit-unavailable")) {
            return decision.action().isEmpty() || decision.get("detail").endsWith(AuditEvent.POLICY_NOT_ASKED);
        }
        return decision.decision().equals("DENY") && (BEFORE_POLICY.contains(outcome) || outcome.startsWith("cap:"));
    }

    /** The field's value as the page shows it: an error code, a decision or an outcome with what it means. */
    String shown(String value) {
        return shown(value, false);
    }

    /**
     * As {@link #shown(String)};
     * {@code beforePolicy}: the record is a refusal decided before the policy was asked, so its {@code DENY} is not
     * the policy's.
     */
    String shown(String value, boolean beforePolicy) {
        if (value.isEmpty()) {
            return value;
        }
        if (beforePolicy && name.equals(RecordField.DECISION.formatName())) {
            return value + " (refused before the policy was asked)";
        }
        Map<String, String> meanings = name.equals(RecordField.ERROR.formatName()) ? ERRORS
                : name.equals(RecordField.DECISION.formatName()) ? DECISIONS
                : name.equals(RecordField.OUTCOME.formatName()) ? OUTCOMES : Map.of();
        String meaning = meanings.get(value);
        return meaning == null ? value : value + " (" + meaning + ")";
    }

    private static List<FieldLabel> all() {
        var all = new ArrayList<FieldLabel>();
        for (RecordField f : RecordField.values()) {
            if (NOT_LISTED.contains(f)) {
                continue;
            }
            String label = LABELS.get(f);
            if (label == null) {
                throw new IllegalStateException("the console has no label for the record field " + f.formatName());
            }
            all.add(new FieldLabel(f.formatName(), label, f.kind() == RecordField.Text.INSTANT));
        }
        all.add(new FieldLabel("hash", "Record hash", false));
        return List.copyOf(all);
    }

    private static Map<RecordField, String> labels() {
        var l = new EnumMap<RecordField, String>(RecordField.class);
        l.put(RecordField.LOG, "Log");
        l.put(RecordField.SEQ, "Position in the log");
        l.put(RecordField.TIME, "Time (UTC)");
        l.put(RecordField.KIND, "Record kind");
        l.put(RecordField.SESSION, "Session");
        l.put(RecordField.CORRELATION, "Correlation id");
        l.put(RecordField.SUBJECT, "Who (subject)");
        l.put(RecordField.CLIENT, "AI client");
        l.put(RecordField.TENANT, "Tenant");
        l.put(RecordField.ROLES, "Roles");
        l.put(RecordField.IP, "Source address");
        l.put(RecordField.UA, "User agent");
        l.put(RecordField.CLIENT_INFO, "Client software");
        l.put(RecordField.AUTH_CONTEXT, "How they signed in");
        l.put(RecordField.PROTOCOL, "Protocol revision");
        l.put(RecordField.METHOD, "Method");
        l.put(RecordField.ACTION, "Action");
        l.put(RecordField.URI, "Resource (URI)");
        l.put(RecordField.DECISION, "Decision");
        l.put(RecordField.RULES, "Deciding rules");
        l.put(RecordField.REVISION, "Policy revision");
        l.put(RecordField.OUTCOME, "Outcome");
        l.put(RecordField.ERROR, "Error");
        l.put(RecordField.BYTES, "Bytes served");
        l.put(RecordField.ITEMS, "Items listed");
        l.put(RecordField.SHA256, "SHA-256 of what was disclosed");
        l.put(RecordField.CACHE_SCOPE, "Cache scope");
        l.put(RecordField.LATENCY_US, "Time taken (µs)");
        l.put(RecordField.COUNT, "Refusals counted");
        l.put(RecordField.FIRST, "First refusal (UTC)");
        l.put(RecordField.LAST, "Last refusal (UTC)");
        l.put(RecordField.URIS_MORE, "Other URIs refused");
        l.put(RecordField.DETAIL, "Detail");
        return l;
    }
}
