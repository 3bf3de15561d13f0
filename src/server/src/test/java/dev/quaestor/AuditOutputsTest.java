package dev.quaestor;

import dev.quaestor.audit.record.AuditRow;
import dev.quaestor.audit.read.AuditSearch;
import dev.quaestor.console.export.ExportFormat;
import dev.quaestor.console.export.SearchExport;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The auditor API's and the console's outputs of stored records, byte for byte: {@code /audit/search}'s JSON,
 * {@code /audit/export} as JSON Lines and CSV, and the console's exports as JSON Lines, CSV and OCSF. Four records
 * with every field the format has (versions 1, 2 and 3; empty, absent, multi-line, non-ASCII values, values a
 * spreadsheet would compute) are stored in a log of their own at an hour no other record has, read back through
 * each output and compared with the files in {@code src/test/resources/audit-outputs/}. The search's row ids, which
 * the database chooses, are the one thing replaced ({@code "id":"ID"}).
 */
@QuarkusTest
class AuditOutputsTest {

    private static final String FROM = "2026-11-01T03:00:00Z";
    private static final String TO = "2026-11-01T04:00:00Z";
    private static final String HASH_A = "a".repeat(64);
    private static final String HASH_B = "0123456789abcdef".repeat(4);

    private static final String COLUMNS = "format, chain_id, seq, event_time, request_id, kind, session_id, correlation, subject,"
            + " client_id, tenant, roles, source_ip, user_agent, client_info, auth_context, protocol, method, action, uri, decision,"
            + " rules, policy_revision, outcome, error_code, bytes, item_count, content_sha256, cache_scope, latency_us, event_count,"
            + " first_time, last_time, uris, uris_more, detail, entry_hash, prev_hash";

    @Inject
    AuditSearch search;

    @BeforeEach
    void store() throws SQLException {
        remove();
        try (Connection su = superuser()) {
            su.createStatement().execute("SELECT quaestor_audit_ensure_partition(TIMESTAMPTZ '" + FROM + "')");
            String marks = Arrays.stream(COLUMNS.split(",")).map(c -> "?").collect(Collectors.joining(","));
            try (PreparedStatement ps = su.prepareStatement("INSERT INTO audit_entry (" + COLUMNS + ") VALUES (" + marks + ")")) {
                insert(ps, "2", "pin-log", 1L, time("2026-11-01T03:00:00.123456Z"), "pin-request-1", "DECISION", "s-1", "sid-9",
                        "=alice", "client,one", "tenant \"q\"", "auditor,reader", "203.0.113.7", "\t=ua", "mcp-client/1.0",
                        "acr=1;amr=pwd", "2025-06-18", "resources/read", "read", "file:///docs/a,\"b\".md", "DENY", "r1,r2",
                        "rev-1", "forbidden", -32003, 0L, 0, null, "private", 1234L, null, null, null, null, null,
                        "two\nlines é 😀 \\u0000", HASH_A, null);
                insert(ps, "2", "pin-log", 2L, time("2026-11-01T03:00:00.120Z"), "pin-request-1", "OUTCOME", null, null,
                        "", null, null, null, null, null, null, null, null, "resources/read", "read", "file:///docs/x", "ALLOW",
                        null, null, "ok", null, 9007199254740993L, 12, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                        null, 0L, null, null, null, null, null, null, HASH_B, null);
                insert(ps, "3", "pin-log", 3L, time("2026-11-01T03:00:05Z"), "pin-request-2", "ATTEMPT_SUMMARY", null, null,
                        "mallory", null, null, null, "198.51.100.1", null, null, null, null, "resources/read", "read", null, "DENY",
                        null, null, "refused", -32003, null, null, null, null, null, 7L, time("2026-11-01T03:00:01.000001Z"),
                        time("2026-11-01T03:00:04Z"), "4 file:///a\n2 file:///b", 1L, "attempt limit", HASH_A, null);
                insert(ps, "v1", "pin-log-v1", 1L, time("2026-11-01T03:30:00.5Z"), "pin-request-3", "POLICY", null, null,
                        "admin", "cli", null, "admin", "::1", "curl/8", null, null, null, "policy/activate", null, null, null,
                        null, "rev-0", "activated", null, null, null, null, null, 17L, null, null, null, null, null, "-lead",
                        HASH_B, "0".repeat(64));
            }
        }
    }

    @AfterEach
    void remove() throws SQLException {
        try (Connection su = superuser()) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            su.createStatement().execute("DELETE FROM audit_entry WHERE chain_id IN ('pin-log', 'pin-log-v1')");
            su.commit();
        }
    }

    @Test
    void theSearchAnswersItsJsonAsPinned() throws IOException {
        String body = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/search?from=" + FROM + "&to=" + TO).then().statusCode(200).extract().asString();
        assertPinned("search.json", body.replaceAll("\"id\":\"[0-9]+\"", "\"id\":\"ID\""));
    }

    @Test
    void theEvidenceExportWritesItsLinesAsPinned() throws IOException {
        String body = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/export?format=jsonl&from=" + FROM + "&to=" + TO).then().statusCode(200).extract().asString();
        // Every key, checkpoint and node is exported too; the records are those of the hour.
        String records = body.lines().filter(l -> l.startsWith("{\"type\":\"record\"")).map(l -> l + "\n").collect(Collectors.joining());
        assertPinned("export.jsonl", records);
    }

    @Test
    void theCsvExportWritesItsRowsAsPinned() throws IOException {
        String body = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor"))
                .get("/audit/export?format=csv&from=" + FROM + "&to=" + TO).then().statusCode(200).extract().asString();
        assertPinned("export.csv", body);
    }

    @Test
    void theConsolesExportsWriteTheirFormatsAsPinned() throws IOException {
        var rows = new ArrayList<AuditRow>();
        for (String request : List.of("pin-request-1", "pin-request-2", "pin-request-3")) {
            rows.addAll(search.requestRecords(request));
        }
        assertEquals(4, rows.size());
        var outputs = new java.util.LinkedHashMap<String, String>();
        for (var format : List.of(ExportFormat.JSONL, ExportFormat.CSV, ExportFormat.OCSF)) {
            var out = new ByteArrayOutputStream();
            new SearchExport("pinned").write(format, each -> rows.forEach(each), out);
            outputs.put("console." + format.extension, out.toString(StandardCharsets.UTF_8));
        }
        assertAll(outputs.entrySet().stream().map(e -> () -> assertPinned(e.getKey(), e.getValue())));
    }

    private static void assertPinned(String name, String actual) throws IOException {
        try (InputStream in = AuditOutputsTest.class.getResourceAsStream("/audit-outputs/" + name)) {
            if (in == null) {
                Path written = Path.of("target", "audit-outputs", name);
                Files.createDirectories(written.getParent());
                Files.writeString(written, actual, StandardCharsets.UTF_8);
                fail("no pinned output " + name + "; this run's is in " + written.toAbsolutePath());
            }
            assertEquals(new String(in.readAllBytes(), StandardCharsets.UTF_8), actual, name);
        }
    }

    private static OffsetDateTime time(String iso) {
        return OffsetDateTime.parse(iso);
    }

    private static void insert(PreparedStatement ps, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            ps.setObject(i + 1, values[i]);
        }
        ps.executeUpdate();
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }
}
