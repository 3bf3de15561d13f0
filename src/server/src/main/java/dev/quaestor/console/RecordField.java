package dev.quaestor.console;

import io.quarkus.qute.TemplateData;
import java.util.List;
import java.util.Map;

/**
 * A record field as a request's page shows it: a label a compliance officer reads, beside the format's own name
 * (docs/audit-format.md), so that either can be looked up; {@code time} fields are kept on one line.
 */
@TemplateData
public record RecordField(String name, String label, boolean time) {

    /** Every field a page lists, in the order it lists them. */
    static final List<RecordField> ALL = List.of(
            new RecordField("kind", "Record kind", false), new RecordField("time", "Time (UTC)", true),
            new RecordField("log", "Log", false), new RecordField("seq", "Position in the log", false),
            new RecordField("subject", "Who (subject)", false), new RecordField("client", "AI client", false),
            new RecordField("tenant", "Tenant", false), new RecordField("roles", "Roles", false),
            new RecordField("ip", "Source address", false), new RecordField("ua", "User agent", false),
            new RecordField("auth_context", "How they signed in", false), new RecordField("session", "Session", false),
            new RecordField("correlation", "Correlation id", false), new RecordField("client_info", "Client software", false),
            new RecordField("protocol", "Protocol revision", false), new RecordField("method", "Method", false),
            new RecordField("action", "Action", false), new RecordField("uri", "Resource (URI)", false),
            new RecordField("decision", "Decision", false), new RecordField("rules", "Deciding rules", false),
            new RecordField("revision", "Policy revision", false), new RecordField("outcome", "Outcome", false),
            new RecordField("error", "Error", false), new RecordField("bytes", "Bytes served", false),
            new RecordField("items", "Items listed", false), new RecordField("sha256", "SHA-256 of the bytes served", false),
            new RecordField("cache_scope", "Cache scope", false), new RecordField("latency_us", "Time taken (µs)", false),
            new RecordField("count", "Refusals counted", false), new RecordField("first", "First refusal (UTC)", true),
            new RecordField("last", "Last refusal (UTC)", true), new RecordField("uris_more", "Other URIs refused", false),
            new RecordField("detail", "Detail", false), new RecordField("hash", "Record hash", false));

    /** What the JSON-RPC error codes on record mean. */
    private static final Map<String, String> ERRORS = Map.of(
            "-32003", "refused by the policy", "-32004", "rate limit reached", "-32005", "server busy, refused at once",
            "-32001", "the content's source did not answer in time", "-32002", "resource not found",
            "-32600", "invalid request", "-32601", "unknown method", "-32602", "invalid parameters (e.g. a URI not in canonical form)",
            "-32603", "internal error");

    /** The field's value as the page shows it: an error code with what it means. */
    String shown(String value) {
        if (name.equals("error") && !value.isEmpty()) {
            String meaning = ERRORS.get(value);
            return meaning == null ? value : value + " (" + meaning + ")";
        }
        return value;
    }
}
