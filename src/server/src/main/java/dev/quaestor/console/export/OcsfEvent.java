package dev.quaestor.console.export;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.quaestor.audit.record.AuditEvent.Kind;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.record.AuditRow.Decision;
import dev.quaestor.evidence.RecordField;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * One request's audit records as one OCSF 1.8.0 event (docs/audit.md has the mapping table). A request's
 * records (a DECISION and its OUTCOME, or a console export and its completion) become one event: API
 * Activity (class 6003) with the security_control profile; refused authentications (AUTHENTICATION, and an
 * ATTEMPT_SUMMARY of them) become Authentication (class 3002) logon events. A summary of refused API calls is one
 * API Activity event whose {@code count} is the number of refusals it stands for.
 */
public final class OcsfEvent {

    public static final String SCHEMA_VERSION = "1.8.0";
    /** The IP written when a record's source address is stored keyed-hashed: the unspecified address, with the hash as uid. */
    static final String UNSPECIFIED_IP = "0.0.0.0";
    /** The IP of events the server raises itself (policy activations, writer start and stop): it is their source. */
    static final String SELF_IP = "127.0.0.1";

    private final String productVersion;

    public OcsfEvent(String productVersion) {
        this.productVersion = productVersion;
    }

    /** Writes the event of one request's records (at least one, in the order they were written). */
    public void write(List<AuditRow> records, JsonGenerator g) throws IOException {
        var first = records.get(0);
        var last = records.get(records.size() - 1);
        Kind kind = first.kind();
        // A summary of refused attempts is an authentication event when what it counts was: tokens turned away before
        // any check (no subject) or refused for a missing scope; otherwise it counts refused API calls.
        boolean authentication = kind == Kind.AUTHENTICATION || kind == Kind.ATTEMPT_SUMMARY
                && (first.subject() == null || "insufficient-scope".equals(first.outcome()));
        Decision decision = firstOf(records, AuditRow::decision);
        String outcome = lastOf(records, AuditRow::outcome);
        Integer error = lastOf(records, AuditRow::error);
        boolean failed = isFailure(decision, outcome, error);
        Instant start = first.time();
        Instant end = last.time();

        g.writeStartObject();
        int activity;
        if (authentication) {
            activity = 1; // Logon
            g.writeNumberField("activity_id", activity);
            g.writeStringField("activity_name", "Logon");
            g.writeNumberField("category_uid", 3);
            g.writeStringField("category_name", "Identity & Access Management");
            g.writeNumberField("class_uid", 3002);
            g.writeStringField("class_name", "Authentication");
            g.writeNumberField("type_uid", 300200 + activity);
            g.writeStringField("type_name", "Authentication: Logon");
        } else {
            activity = apiActivity(first);
            g.writeNumberField("activity_id", activity);
            g.writeStringField("activity_name", ACTIVITY_NAMES[activity == 99 ? 5 : activity]);
            g.writeNumberField("category_uid", 6);
            g.writeStringField("category_name", "Application Activity");
            g.writeNumberField("class_uid", 6003);
            g.writeStringField("class_name", "API Activity");
            g.writeNumberField("type_uid", 600300 + activity);
            g.writeStringField("type_name", "API Activity: " + ACTIVITY_NAMES[activity == 99 ? 5 : activity]);
        }
        int severity = decision == Decision.DENY && !authentication ? 3 : failed ? 2 : 1;
        g.writeNumberField("severity_id", severity);
        g.writeStringField("severity", severity == 3 ? "Medium" : severity == 2 ? "Low" : "Informational");
        g.writeNumberField("time", start.toEpochMilli());
        g.writeStringField("time_dt", start.toString());
        if (records.size() > 1) {
            g.writeNumberField("start_time", start.toEpochMilli());
            g.writeNumberField("end_time", end.toEpochMilli());
        }
        Long count = first.count();
        if (count != null) {
            g.writeNumberField("count", count);
            if (first.first() != null) {
                g.writeNumberField("start_time", first.first().toEpochMilli());
            }
            if (first.last() != null) {
                g.writeNumberField("end_time", first.last().toEpochMilli());
            }
        }
        Long latency = lastOf(records, AuditRow::latencyUs);
        if (latency != null) {
            g.writeNumberField("duration", latency / 1000);
        }
        g.writeNumberField("status_id", failed ? 2 : 1);
        g.writeStringField("status", failed ? "Failure" : "Success");
        if (outcome != null) {
            g.writeStringField("status_detail", outcome);
        }
        if (error != null) {
            g.writeStringField("status_code", error.toString());
        }
        g.writeStringField("message", message(first, decision, outcome));

        metadata(g, first, records);
        if (authentication) {
            g.writeObjectFieldStart("user");
            g.writeStringField("name", first.subject() == null ? "unknown" : first.subject());
            g.writeNumberField("type_id", 0);
            g.writeStringField("type", "Unknown");
            g.writeEndObject();
            g.writeNumberField("auth_protocol_id", 99);
            g.writeStringField("auth_protocol", "OAuth 2.0 bearer token");
            g.writeBooleanField("is_remote", true);
            writeActor(g, first);
        } else {
            writeActor(g, first);
            g.writeObjectFieldStart("api");
            g.writeStringField("operation", operation(first));
            g.writeObjectFieldStart("request");
            g.writeStringField("uid", first.request());
            g.writeEndObject();
            g.writeObjectFieldStart("response");
            if (error != null) {
                g.writeNumberField("code", error);
            }
            if (failed && outcome != null) {
                g.writeStringField("error", outcome);
            }
            g.writeEndObject();
            g.writeObjectFieldStart("service");
            g.writeStringField("name", "Quaestor");
            g.writeEndObject();
            if (first.protocol() != null) {
                g.writeStringField("version", first.protocol());
            }
            g.writeEndObject();
            String uri = firstOf(records, AuditRow::uri);
            if (uri != null) {
                g.writeArrayFieldStart("resources");
                g.writeStartObject();
                g.writeStringField("uid", uri);
                g.writeStringField("name", uri);
                g.writeStringField("type", "MCP resource");
                g.writeEndObject();
                g.writeEndArray();
            }
        }
        writeSource(g, first);
        // A summary of refused API calls is under the policy as the calls it counts were.
        securityControl(g, records, authentication || kind != Kind.ATTEMPT_SUMMARY ? kind : Kind.DECISION, decision, outcome);
        unmapped(g, records);
        g.writeEndObject();
    }

    private static final String[] ACTIVITY_NAMES = {"Unknown", "Create", "Read", "Update", "Delete", "Other"};

    /** Read for reads, listings and audit-trail reads; Create/Delete for subscriptions and sessions; Update for changes. */
    static int apiActivity(AuditRow r) {
        Kind kind = r.kind();
        String action = r.action();
        String method = r.method() == null ? "" : r.method();
        if (kind == Kind.DECISION || kind == Kind.OUTCOME || kind == Kind.ATTEMPT_SUMMARY) {
            if ("subscribe".equals(action)) {
                return method.contains("unsubscribe") ? 4 : 1;
            }
            return 2;
        }
        if (kind == null) {
            return 99;
        }
        return switch (kind) {
            case AUDIT_READ -> 2;
            case ADMIN -> method.contains("sign-off") ? 3 : 2;
            case SESSION_OPEN -> 1;
            case SESSION_CLOSE -> 4;
            case POLICY, KEY_ROTATION -> 3;
            default -> 99;
        };
    }

    private static boolean isFailure(Decision decision, String outcome, Integer error) {
        if (decision == Decision.DENY || error != null) {
            return true;
        }
        return outcome != null && !outcome.equals("ok") && !outcome.equals("activated") && !outcome.equals("resumed")
                && !outcome.equals("started") && !outcome.equals("stopped") && !outcome.equals("sent");
    }

    private static String operation(AuditRow r) {
        return r.method() != null ? r.method() : r.kind().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String message(AuditRow r, Decision decision, String outcome) {
        String who = r.subject() == null ? (r.ip() == null ? "Quaestor" : "an unauthenticated caller") : r.subject();
        var sb = new StringBuilder(who).append(' ').append(operation(r));
        if (r.uri() != null) {
            sb.append(' ').append(r.uri());
        }
        if (decision != null) {
            sb.append(": ").append(decision);
        }
        if (outcome != null) {
            sb.append(", ").append(outcome);
        }
        return sb.toString();
    }

    private void metadata(JsonGenerator g, AuditRow first, List<AuditRow> records) throws IOException {
        g.writeObjectFieldStart("metadata");
        g.writeStringField("version", SCHEMA_VERSION);
        g.writeObjectFieldStart("product");
        g.writeStringField("name", "Quaestor");
        g.writeStringField("vendor_name", "Quaestor");
        g.writeStringField("version", productVersion);
        g.writeEndObject();
        g.writeArrayFieldStart("profiles");
        g.writeString("security_control");
        g.writeEndArray();
        g.writeStringField("uid", first.request());
        g.writeStringField("correlation_uid", first.request());
        // By its format name: a version-1 record has none (that version names its log chain).
        String logName = first.text("log");
        if (logName != null) {
            g.writeStringField("log_name", logName);
        }
        if (first.seq() != null) {
            g.writeNumberField("sequence", first.seq());
        }
        g.writeStringField("original_time", first.text(RecordField.TIME));
        g.writeNumberField("logged_time", records.get(records.size() - 1).time().toEpochMilli());
        g.writeEndObject();
    }

    private static void writeActor(JsonGenerator g, AuditRow r) throws IOException {
        g.writeObjectFieldStart("actor");
        g.writeObjectFieldStart("user");
        if (r.subject() != null) {
            g.writeStringField("uid", r.subject());
            g.writeStringField("name", r.subject());
            g.writeNumberField("type_id", 1);
            g.writeStringField("type", "User");
            if (r.roles() != null) {
                g.writeArrayFieldStart("groups");
                for (String role : r.roles().split(",")) {
                    g.writeStartObject();
                    g.writeStringField("name", role);
                    g.writeEndObject();
                }
                g.writeEndArray();
            }
        } else if (r.ip() == null && r.ua() == null) {
            g.writeStringField("uid", r.text("log") == null ? "quaestor" : r.text("log"));
            g.writeStringField("name", "quaestor");
            g.writeNumberField("type_id", 3);
            g.writeStringField("type", "System");
        } else {
            g.writeStringField("name", "unknown");
            g.writeNumberField("type_id", 0);
            g.writeStringField("type", "Unknown");
        }
        g.writeEndObject();
        if (r.client() != null) {
            g.writeStringField("app_name", r.client());
        }
        if (r.session() != null || r.correlation() != null) {
            g.writeObjectFieldStart("session");
            g.writeStringField("uid", r.session() != null ? r.session() : r.correlation());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    private static void writeSource(JsonGenerator g, AuditRow r) throws IOException {
        g.writeObjectFieldStart("src_endpoint");
        String ip = r.ip();
        if (ip == null) {
            g.writeStringField("ip", r.subject() == null && r.ua() == null ? SELF_IP : UNSPECIFIED_IP);
            if (r.text("log") != null && r.subject() == null) {
                g.writeStringField("hostname", r.text("log"));
            }
        } else if (ip.startsWith("hmac:")) {
            g.writeStringField("ip", UNSPECIFIED_IP);
            g.writeStringField("uid", ip);
        } else {
            g.writeStringField("ip", ip);
        }
        g.writeEndObject();
        if (r.ua() != null) {
            g.writeObjectFieldStart("http_request");
            g.writeStringField("user_agent", r.ua());
            g.writeEndObject();
        }
    }

    /** The security_control profile: what the control decided (disposition, action) and under which policy. */
    private static void securityControl(JsonGenerator g, List<AuditRow> records, Kind kind, Decision decision,
            String outcome) throws IOException {
        int disposition;
        int action;
        if (decision == Decision.DENY || "rate-limited".equals(outcome) || "busy".equals(outcome)) {
            disposition = 2; // Blocked
            action = 2; // Denied
        } else if (decision == Decision.ALLOW || decision == Decision.FILTER) {
            disposition = 1; // Allowed
            action = 1; // Allowed
        } else {
            disposition = 17; // Logged
            action = 99; // Other
        }
        g.writeNumberField("disposition_id", disposition);
        g.writeStringField("disposition", disposition == 2 ? "Blocked" : disposition == 1 ? "Allowed" : "Logged");
        g.writeNumberField("action_id", action);
        g.writeStringField("action", action == 2 ? "Denied" : action == 1 ? "Allowed" : "Other");
        String revision = firstOf(records, AuditRow::revision);
        String rules = firstOf(records, AuditRow::rules);
        g.writeObjectFieldStart("policy");
        g.writeStringField("name", policyName(kind, decision, rules));
        if (revision != null) {
            g.writeStringField("uid", revision);
            g.writeStringField("version", revision);
        }
        g.writeBooleanField("is_applied", decision != null);
        g.writeStringField("desc", policyDescription(kind, revision));
        g.writeEndObject();
    }

    static String policyName(Kind kind, Decision decision, String rules) {
        if (rules != null) {
            return rules;
        }
        if (kind == Kind.DECISION || kind == Kind.OUTCOME) {
            return decision == Decision.DENY ? "default deny" : "no rule";
        }
        if (kind == null) {
            return "none";
        }
        return switch (kind) {
            case AUDIT_READ, ADMIN -> "staff role";
            case AUTHENTICATION, ATTEMPT_SUMMARY -> "token required";
            default -> "none";
        };
    }

    private static String policyDescription(Kind kind, String revision) {
        if (revision != null) {
            return "Quaestor policy revision " + revision;
        }
        if (kind == null) {
            return "no access decision";
        }
        return switch (kind) {
            case AUDIT_READ, ADMIN -> "the role the auditor, administrator or console page requires";
            case AUTHENTICATION, ATTEMPT_SUMMARY -> "a valid OIDC bearer token is required";
            default -> "no access decision";
        };
    }

    /** What OCSF has no field for: the records' kinds, log positions and hashes, the bytes' SHA-256, the detail. */
    private static void unmapped(JsonGenerator g, List<AuditRow> records) throws IOException {
        g.writeObjectFieldStart("unmapped");
        g.writeArrayFieldStart("records");
        for (var r : records) {
            g.writeStartObject();
            for (String f : UNMAPPED_PER_RECORD) {
                if (r.text(f) != null) {
                    g.writeStringField(f, r.text(f));
                }
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        Set<String> seen = new LinkedHashSet<>();
        for (String f : UNMAPPED_ONCE) {
            String v = lastOf(records, f);
            if (v != null && seen.add(f)) {
                g.writeStringField(f, v);
            }
        }
        g.writeEndObject();
    }

    private static final List<String> UNMAPPED_PER_RECORD = List.of("kind", "log", "seq", "time", "hash", "outcome");
    private static final List<String> UNMAPPED_ONCE = List.of("sha256", "bytes", "items", "cache_scope", "auth_context",
            "client_info", "tenant", "uris", "uris_more", "detail");

    private static <T> T firstOf(List<AuditRow> records, Function<AuditRow, T> field) {
        for (var r : records) {
            if (field.apply(r) != null) {
                return field.apply(r);
            }
        }
        return null;
    }

    private static <T> T lastOf(List<AuditRow> records, Function<AuditRow, T> field) {
        for (int i = records.size() - 1; i >= 0; i--) {
            if (field.apply(records.get(i)) != null) {
                return field.apply(records.get(i));
            }
        }
        return null;
    }

    /** The last value of a field named in {@link #UNMAPPED_ONCE}. */
    private static String lastOf(List<AuditRow> records, String name) {
        return lastOf(records, r -> r.text(name));
    }

    /** Groups a stream of records ordered by request into requests, one list at a time. */
    public static final class RequestGroups {
        private final List<AuditRow> current = new ArrayList<>();
        private final Sink sink;

        public interface Sink {
            void request(List<AuditRow> records) throws IOException;
        }

        public RequestGroups(Sink sink) {
            this.sink = sink;
        }

        public void add(AuditRow record) throws IOException {
            if (!current.isEmpty() && !java.util.Objects.equals(current.get(0).request(), record.request())) {
                flush();
            }
            current.add(record);
        }

        public void flush() throws IOException {
            if (!current.isEmpty()) {
                sink.request(current);
                current.clear();
            }
        }
    }
}
