package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.Plain;
import java.io.PrintStream;
import java.util.Map;

/** A record's fields in plain words, for people reading a proof. */
final class RecordWords {

    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("v", "format version"), Map.entry("log", "log"), Map.entry("chain", "log"),
            Map.entry("seq", "position in the log"), Map.entry("prev", "previous record's hash"),
            Map.entry("time", "when (UTC)"), Map.entry("request", "request id"), Map.entry("kind", "event"),
            Map.entry("session", "MCP session"), Map.entry("correlation", "client correlation"),
            Map.entry("subject", "who"), Map.entry("client", "OAuth client"), Map.entry("tenant", "tenant"),
            Map.entry("roles", "roles"), Map.entry("ip", "from address"), Map.entry("ua", "user agent"),
            Map.entry("client_info", "MCP client"), Map.entry("auth_context", "authenticated by"),
            Map.entry("protocol", "MCP protocol"), Map.entry("method", "operation"), Map.entry("action", "policy action"),
            Map.entry("uri", "resource (URI)"), Map.entry("decision", "decision"), Map.entry("rules", "deciding rules"),
            Map.entry("revision", "policy revision"), Map.entry("outcome", "outcome"), Map.entry("error", "error code"),
            Map.entry("bytes", "bytes disclosed"), Map.entry("items", "entries disclosed"),
            Map.entry("sha256", "SHA-256 of the bytes disclosed"), Map.entry("cache_scope", "cache scope"),
            Map.entry("latency_us", "time taken (microseconds)"), Map.entry("count", "events summarised"),
            Map.entry("first", "first of them"), Map.entry("last", "last of them"), Map.entry("detail", "detail"));

    /** Prints every present field, one per line, in the record's order. */
    static void print(Map<String, String> fields, PrintStream out) {
        for (var e : fields.entrySet()) {
            String label = LABELS.getOrDefault(e.getKey(), e.getKey());
            out.printf("  %-32s %s%n", label + ":", Plain.visible(e.getValue()));
        }
    }
}
