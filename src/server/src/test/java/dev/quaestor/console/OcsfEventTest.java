package dev.quaestor.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The OCSF mapping of each kind of record: classes, activities, dispositions, and every required field. */
class OcsfEventTest {

    private static List<JsonNode> export(List<Map<String, String>> records) throws Exception {
        var out = new ByteArrayOutputStream();
        new SearchExport("1.2.3").write(ExportFormat.OCSF, each -> records.forEach(r -> each.accept(AuditRow.parse(null, r::get))), out);
        var events = new ArrayList<JsonNode>();
        for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
            JsonNode e = new ObjectMapper().readTree(line);
            OcsfFields.check(e);
            events.add(e);
        }
        return events;
    }

    private static Map<String, String> record(String request, String kind, String... more) {
        var m = new java.util.HashMap<String, String>(Map.of("v", "2", "log", "pod-1", "seq", "7", "time", "2026-11-25T10:00:00.123456Z",
                "request", request, "kind", kind, "hash", "ab".repeat(32)));
        for (int i = 0; i < more.length; i += 2) {
            m.put(more[i], more[i + 1]);
        }
        return m;
    }

    @Test
    void aReadsDecisionAndOutcomeAreOneApiActivityReadEvent() throws Exception {
        var events = export(List.of(
                record("r1", "DECISION", "subject", "alice", "ip", "10.1.2.3", "method", "resources/read", "action", "read",
                        "uri", "file:///a.md", "decision", "ALLOW", "rules", "pi-read-trials", "revision", "cd".repeat(32)),
                record("r1", "OUTCOME", "subject", "alice", "ip", "10.1.2.3", "method", "resources/read", "action", "read",
                        "uri", "file:///a.md", "outcome", "ok", "bytes", "239", "sha256", "ef".repeat(32), "latency_us", "5000")));
        assertEquals(1, events.size());
        JsonNode e = events.get(0);
        assertEquals(6003, e.path("class_uid").asInt());
        assertEquals(2, e.path("activity_id").asInt());
        assertEquals(600302, e.path("type_uid").asLong());
        assertEquals("Allowed", e.path("disposition").asText());
        assertEquals("pi-read-trials", e.path("policy").path("name").asText());
        assertEquals("cd".repeat(32), e.path("policy").path("uid").asText());
        assertEquals("10.1.2.3", e.path("src_endpoint").path("ip").asText());
        assertEquals("ef".repeat(32), e.path("unmapped").path("sha256").asText());
        assertEquals(5, e.path("duration").asInt());
        assertEquals("1.2.3", e.path("metadata").path("product").path("version").asText());
    }

    @Test
    void aDenialIsBlockedUnderDefaultDenyAndAHashedAddressIsNoAddress() throws Exception {
        JsonNode e = export(List.of(record("r2", "DECISION", "subject", "bob", "ip", "hmac:0a0b", "method", "resources/read",
                "action", "read", "uri", "file:///t.md", "decision", "DENY", "outcome", "refused", "error", "-32003"))).get(0);
        assertEquals("Blocked", e.path("disposition").asText());
        assertEquals("Denied", e.path("action").asText());
        assertEquals("default deny", e.path("policy").path("name").asText());
        assertEquals(3, e.path("severity_id").asInt());
        assertEquals(2, e.path("status_id").asInt());
        assertEquals("0.0.0.0", e.path("src_endpoint").path("ip").asText());
        assertEquals("hmac:0a0b", e.path("src_endpoint").path("uid").asText());
    }

    @Test
    void refusedAuthenticationsAreAuthenticationLogonEvents() throws Exception {
        var events = export(List.of(
                record("r3", "AUTHENTICATION", "ip", "192.0.2.9", "ua", "curl/8", "method", "POST /mcp", "decision", "DENY",
                        "outcome", "invalid-token"),
                record("r4", "ATTEMPT_SUMMARY", "ip", "192.0.2.9", "method", "POST /mcp", "decision", "DENY", "outcome", "throttled",
                        "count", "41", "first", "2026-11-25T10:00:00Z", "last", "2026-11-25T10:00:59Z")));
        assertEquals(2, events.size());
        for (JsonNode e : events) {
            assertEquals(3002, e.path("class_uid").asInt());
            assertEquals(3, e.path("category_uid").asInt());
            assertEquals(300201, e.path("type_uid").asLong());
            assertEquals(2, e.path("status_id").asInt());
            assertEquals("192.0.2.9", e.path("src_endpoint").path("ip").asText());
        }
        assertEquals(41, events.get(1).path("count").asInt());
        assertTrue(events.get(1).path("end_time").asLong() > events.get(1).path("start_time").asLong());
    }

    @Test
    void aSummaryOfRefusedReadsIsOneApiActivityEventCountingThem() throws Exception {
        JsonNode e = export(List.of(record("r6", "ATTEMPT_SUMMARY", "subject", "mallory", "client", "cli", "action", "read",
                "method", "resources/read", "decision", "DENY", "outcome", "refused", "error", "-32003", "count", "540",
                "first", "2026-11-25T10:00:00Z", "last", "2026-11-25T10:00:00.9Z", "uris", "539 file:///docs/home/bob/a.md",
                "uris_more", "1"))).get(0);
        assertEquals(6003, e.path("class_uid").asInt(), "refused API calls, not a logon");
        assertEquals(2, e.path("activity_id").asInt(), "read");
        assertEquals(540, e.path("count").asInt());
        assertEquals("default deny", e.path("policy").path("name").asText());
        assertEquals("539 file:///docs/home/bob/a.md", e.path("unmapped").path("uris").asText());
        assertEquals("1", e.path("unmapped").path("uris_more").asText());
    }

    @Test
    void eventsTheServerRaisesItselfComeFromItself() throws Exception {
        JsonNode e = export(List.of(record("r5", "POLICY", "method", "policy/activate", "revision", "cd".repeat(32),
                "outcome", "activated", "detail", "13 rules active (file change)"))).get(0);
        assertEquals(6003, e.path("class_uid").asInt());
        assertEquals(3, e.path("activity_id").asInt());
        assertEquals("System", e.path("actor").path("user").path("type").asText());
        assertEquals("127.0.0.1", e.path("src_endpoint").path("ip").asText());
        assertEquals(1, e.path("status_id").asInt());
        assertFalse(e.path("policy").path("is_applied").asBoolean());
        JsonNode resumed = export(List.of(record("r6", "POLICY", "method", "policy/resume", "revision", "cd".repeat(32),
                "outcome", "resumed", "detail", "13 rules active: the refusal of revision ab is over"))).get(0);
        assertEquals(1, resumed.path("status_id").asInt(), "the end of a refusal is a success: " + resumed);
    }
}
