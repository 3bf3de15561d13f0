package dev.quaestor;

import dev.quaestor.audit.ChainVerifier;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit log against the people who could tamper with it. The application role cannot change
 * it at all; a superuser who disables the triggers can, and then both verifiers (the online
 * endpoint and the offline tool on an export) name the first broken record. Each tampering is
 * undone afterwards so the log stays valid for the rest of the run.
 */
@QuarkusTest
class AuditIntegrityTest {

    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");

    @BeforeEach
    void traffic() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (int i = 0; i < 30; i++) {
            Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}")
                    .statusCode(200);
        }
        Thread.sleep(1500); // let the 1 s checkpoint interval sign the head
    }

    private JsonPath onlineVerify() {
        return given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
    }

    /** Exports over the API and runs the offline verifier on the file, pinned to the published key. */
    private String offlineVerify(boolean expectOk) throws Exception {
        byte[] export = given().header("Authorization", "Bearer " + auditor).get("/audit/export").then().statusCode(200)
                .extract().asByteArray();
        Path file = tmp.resolve("export-" + System.nanoTime() + ".jsonl");
        Files.write(file, export);
        String key = given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().path("publicKey");
        var out = new ByteArrayOutputStream();
        int code = ChainVerifier.run(new String[] {file.toString(), "--trust", key}, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectOk ? 0 : 1, code, text);
        return text;
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    private static long scalar(Connection c, String sql) throws SQLException {
        try (var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void anUntouchedLogVerifiesOnlineAndOffline() throws Exception {
        JsonPath v = onlineVerify();
        assertEquals(true, v.getBoolean("verified"), v.prettify());
        assertTrue(v.getInt("chains[0].checkpoints") > 0, v.prettify());
        assertTrue(offlineVerify(true).contains("VERIFIED"));
    }

    @Test
    void theApplicationRoleCannotUpdateDeleteOrTruncate() throws Exception {
        try (Connection app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
            for (String sql : List.of("UPDATE audit_entry SET subject = 'mallory' WHERE id = (SELECT MIN(id) FROM audit_entry)",
                    "DELETE FROM audit_entry WHERE id = (SELECT MIN(id) FROM audit_entry)", "TRUNCATE audit_entry",
                    "UPDATE audit_checkpoint SET seq = 1", "DELETE FROM audit_checkpoint", "TRUNCATE audit_checkpoint",
                    "DELETE FROM audit_key")) {
                var e = assertThrows(SQLException.class, () -> app.createStatement().execute(sql), sql);
                assertTrue(e.getMessage().contains("permission denied"), sql + ": " + e.getMessage());
            }
        }
        // Even the owner is stopped by the triggers unless it disables them first.
        try (Connection su = superuser()) {
            for (String sql : List.of("UPDATE audit_entry SET subject = 'mallory' WHERE id = (SELECT MIN(id) FROM audit_entry)",
                    "DELETE FROM audit_entry WHERE id = (SELECT MIN(id) FROM audit_entry)", "TRUNCATE audit_entry")) {
                var e = assertThrows(SQLException.class, () -> su.createStatement().execute(sql), sql);
                assertTrue(e.getMessage().contains("audit records are immutable"), sql + ": " + e.getMessage());
            }
        }
    }

    /** Runs a tampering as a superuser with triggers off, checks both verifiers, then runs the undo. */
    private void tamper(String what, List<String> doIt, List<String> undo, long expectSeq, String expectMessage) throws Exception {
        try (Connection su = superuser()) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            for (String sql : doIt) {
                su.createStatement().execute(sql);
            }
            su.commit();
            try {
                JsonPath v = onlineVerify();
                assertEquals(false, v.getBoolean("verified"), what + ": " + v.prettify());
                assertEquals(expectSeq, v.getLong("problems[0].seq"), what + ": " + v.prettify());
                assertTrue(mentions(v.getString("problems[0].message"), expectMessage), what + ": " + v.prettify());
                String offline = offlineVerify(false);
                assertTrue(offline.contains("BROKEN") && offline.contains("seq " + expectSeq) && mentions(offline, expectMessage),
                        what + ": " + offline);
            } finally {
                su.createStatement().execute("SET LOCAL session_replication_role = replica");
                for (String sql : undo) {
                    su.createStatement().execute(sql);
                }
                su.commit();
            }
        }
        assertEquals(true, onlineVerify().getBoolean("verified"), what + " was not undone");
    }

    /** True if the text contains one of the '|'-separated words. */
    private static boolean mentions(String text, String words) {
        for (String w : words.split("\\|")) {
            if (text.contains(w)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyKindOfTamperingIsFoundAtItsPosition() throws Exception {
        long target;
        long lastCheckpoint;
        String chain;
        String partition;
        try (Connection su = superuser()) {
            // The server's own chain: the one the traffic above was just written to.
            try (var rs = su.createStatement().executeQuery("SELECT chain_id FROM audit_entry ORDER BY id DESC LIMIT 1")) {
                rs.next();
                chain = rs.getString(1);
            }
            lastCheckpoint = scalar(su, "SELECT MAX(seq) FROM audit_checkpoint WHERE chain_id = '" + chain + "'");
            target = lastCheckpoint - 3;
            // audit_entry is partitioned by month; (chain_id, seq) is unique within each partition.
            try (var rs = su.createStatement().executeQuery("SELECT tableoid::regclass::text FROM audit_entry WHERE chain_id = '"
                    + chain + "' AND seq = " + target)) {
                rs.next();
                partition = rs.getString(1);
            }
        }
        String row = "chain_id = '" + chain + "' AND seq = ";
        tamper("change a field",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE " + row + target,
                        "UPDATE audit_entry SET subject = 'mallory' WHERE " + row + target),
                List.of("UPDATE audit_entry a SET subject = s.subject FROM saved s WHERE a.id = s.id", "DROP TABLE saved"),
                target, "record altered");
        tamper("delete a row",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE " + row + target,
                        "DELETE FROM audit_entry WHERE " + row + target),
                List.of("INSERT INTO audit_entry OVERRIDING SYSTEM VALUE SELECT * FROM saved", "DROP TABLE saved"),
                target, "records missing");
        tamper("swap two rows",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE " + row + target + " OR " + row + (target + 1),
                        "UPDATE audit_entry SET id = -id WHERE " + row + target + " OR " + row + (target + 1),
                        "UPDATE audit_entry a SET id = (SELECT s.id FROM saved s WHERE s.seq <> a.seq) WHERE a.id < 0"),
                List.of("UPDATE audit_entry SET id = -id WHERE " + row + target + " OR " + row + (target + 1),
                        "UPDATE audit_entry a SET id = (SELECT s.id FROM saved s WHERE s.seq = a.seq) WHERE a.id < 0",
                        "DROP TABLE saved"),
                target, "reordered");
        tamper("insert a forged row",
                List.of("INSERT INTO audit_entry (format, chain_id, seq, prev_hash, event_time, request_id, kind, subject, uri, entry_hash) "
                        + "SELECT format, chain_id, seq, prev_hash, event_time, 'forged', kind, 'mallory', uri, entry_hash "
                        + "FROM audit_entry WHERE " + row + target + " ON CONFLICT DO NOTHING",
                        "DROP INDEX " + partition + "_chain_seq",
                        "INSERT INTO audit_entry (format, chain_id, seq, prev_hash, event_time, request_id, kind, subject, uri, entry_hash) "
                        + "SELECT format, chain_id, seq, prev_hash, event_time, 'forged', kind, 'mallory', uri, entry_hash "
                        + "FROM audit_entry WHERE " + row + target),
                List.of("DELETE FROM audit_entry WHERE request_id = 'forged'",
                        "CREATE UNIQUE INDEX " + partition + "_chain_seq ON " + partition + " (chain_id, seq)"),
                target, "duplicated");
        tamper("truncate the tail",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE chain_id = '" + chain + "' AND seq >= " + target,
                        "DELETE FROM audit_entry WHERE chain_id = '" + chain + "' AND seq >= " + target),
                List.of("INSERT INTO audit_entry OVERRIDING SYSTEM VALUE SELECT * FROM saved", "DROP TABLE saved"),
                // Later records (this test's own audited verify calls) follow the cut, so it shows as a gap.
                target, "truncated|missing");
    }
}
