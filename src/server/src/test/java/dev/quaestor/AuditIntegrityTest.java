package dev.quaestor;

import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.VerifierKey;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.evidence.write.NoteSigner;
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
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The audit log against the people who could tamper with it. The application role cannot change it
 * at all; a superuser who disables the triggers can, and then both the online check and the
 * standalone verifier (quaestor-verify, on an export, trusting only the pinned key) say where: an
 * edited, deleted, swapped or inserted record, a changed tree node, a checkpoint re-signed with a
 * key nobody pinned. A key slipped into audit_key is named as untrusted and never used. Each
 * tampering is undone afterwards so the log stays valid for the rest of the run.
 */
@QuarkusTest
class AuditIntegrityTest {

    @jakarta.inject.Inject
    dev.quaestor.audit.AuditLog audit;

    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");

    @BeforeEach
    void traffic() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (int i = 0; i < 40; i++) {
            Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}")
                    .statusCode(200);
        }
        assertTrue(audit.signCheckpointNow(), "a checkpoint signs the head");
    }

    private JsonPath onlineVerify() {
        return given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
    }

    /** Exports over the API and runs the standalone verifier on the file, trusting the key the server signs with. */
    private String offlineVerify(boolean expectOk) throws Exception {
        byte[] export = given().header("Authorization", "Bearer " + auditor).get("/audit/export").then().statusCode(200)
                .extract().asByteArray();
        Path file = tmp.resolve("export-" + System.nanoTime() + ".jsonl");
        Files.write(file, export);
        Path key = tmp.resolve("audit.vkey");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().<String>path("vkey"));
        var out = new ByteArrayOutputStream();
        // The export's own record, at least, comes after the log's last checkpoint: that tail is accepted.
        int code = Main.run(new String[] {"verify", file.toString(), "--trust", key.toString(), "--allow-unsigned-tail"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectOk ? Main.VERIFIED : Main.NOT_VERIFIED, code, text);
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

    private static String text(Connection c, String sql) throws SQLException {
        try (var rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void anUntouchedLogVerifiesOnlineAndOffline() throws Exception {
        JsonPath v = onlineVerify();
        assertEquals(true, v.getBoolean("verified"), v.prettify());
        assertTrue(v.getInt("logs[0].checkpoints") > 0, v.prettify());
        assertEquals("2", v.getString("logs[0].formats"), v.prettify());
        assertTrue(offlineVerify(true).contains("VERIFIED"));
    }

    /**
     * An export ends, for this server's log, on a checkpoint over its last record, the export's own record included:
     * it verifies as exported, with no unsigned tail to allow for.
     */
    @Test
    void anExportOfThisServersLogEndsOnACheckpointOverItsOwnRecord() {
        var answer = given().header("Authorization", "Bearer " + auditor).get("/audit/export").then().statusCode(200).extract();
        String own = answer.header("X-Request-Id");
        long lastSeq = 0;
        long lastSigned = 0;
        String lastRequest = null;
        for (String line : answer.asString().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            JsonPath l = new JsonPath(line);
            if (!audit.logId().equals(l.getString("log"))) {
                continue;
            }
            if ("checkpoint".equals(l.getString("type")) && l.get("size") != null) {
                lastSigned = Math.max(lastSigned, l.getLong("size"));
            } else if ("record".equals(l.getString("type")) && Long.parseLong(l.getString("seq")) > lastSeq) {
                lastSeq = Long.parseLong(l.getString("seq"));
                lastRequest = l.getString("request");
            }
        }
        assertEquals(own, lastRequest, "the export's own record is its log's last");
        assertEquals(lastSeq, lastSigned, "a checkpoint covers it");
    }

    @Test
    void theApplicationRoleCannotUpdateDeleteOrTruncate() throws Exception {
        try (Connection app = DriverManager.getConnection(TestDatabase.url(), TestDatabase.APP_ROLE, "")) {
            for (String sql : List.of("UPDATE audit_entry SET subject = 'mallory' WHERE id = (SELECT MIN(id) FROM audit_entry)",
                    "DELETE FROM audit_entry WHERE id = (SELECT MIN(id) FROM audit_entry)", "TRUNCATE audit_entry",
                    "UPDATE audit_checkpoint SET seq = 1", "DELETE FROM audit_checkpoint", "TRUNCATE audit_checkpoint",
                    "DELETE FROM audit_key", "UPDATE audit_tree_node SET hash = 'x'", "DELETE FROM audit_tree_node",
                    "TRUNCATE audit_tree_node", "DELETE FROM audit_head", "TRUNCATE audit_head")) {
                var e = assertThrows(SQLException.class, () -> app.createStatement().execute(sql), sql);
                assertTrue(e.getMessage().contains("permission denied"), sql + ": " + e.getMessage());
            }
        }
        // Even the owner is stopped by the triggers unless it disables them first.
        try (Connection su = superuser()) {
            for (String sql : List.of("UPDATE audit_entry SET subject = 'mallory' WHERE id = (SELECT MIN(id) FROM audit_entry)",
                    "DELETE FROM audit_entry WHERE id = (SELECT MIN(id) FROM audit_entry)", "TRUNCATE audit_entry",
                    "UPDATE audit_tree_node SET hash = 'x'", "TRUNCATE audit_tree_node", "DELETE FROM audit_head",
                    "TRUNCATE audit_head")) {
                var e = assertThrows(SQLException.class, () -> su.createStatement().execute(sql), sql);
                assertTrue(e.getMessage().contains("audit records are immutable"), sql + ": " + e.getMessage());
            }
        }
    }

    /**
     * Runs a tampering as a superuser with triggers off, checks that both verifiers fail at
     * {@code expectSeq} with {@code expectMessage} (one of its '|'-separated words), then undoes it.
     */
    private void tamper(String what, List<String> doIt, List<String> undo, long expectSeq, String expectMessage) throws Exception {
        tamper(what, doIt, undo, expectSeq, expectMessage, v -> {
        });
    }

    /** As above, and {@code more} checks the online answer further while the tampering stands. */
    private void tamper(String what, List<String> doIt, List<String> undo, long expectSeq, String expectMessage,
            java.util.function.Consumer<JsonPath> more) throws Exception {
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
                more.accept(v);
                String offline = offlineVerify(false);
                assertTrue(offline.contains("NOT VERIFIED") && mentions(offline, expectMessage), what + ": " + offline);
                assertTrue(offline.contains(String.format(java.util.Locale.ENGLISH, "%,d", expectSeq)), what + " at " + expectSeq + ": " + offline);
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

    private static String requestIdAt(String chain, long seq) {
        try (Connection su = superuser()) {
            return text(su, "SELECT request_id FROM audit_entry WHERE chain_id = '" + chain + "' AND seq = " + seq);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String repeatAb() {
        return "ab".repeat(32);
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
        long nodeLevel;
        long nodeIndex;
        String note;
        try (Connection su = superuser()) {
            // The server's own log: the one the traffic above was just written to.
            chain = text(su, "SELECT chain_id FROM audit_entry ORDER BY id DESC LIMIT 1");
            lastCheckpoint = scalar(su, "SELECT MAX(seq) FROM audit_checkpoint WHERE chain_id = '" + chain + "'");
            target = lastCheckpoint - 3;
            // audit_entry is partitioned by month; (chain_id, seq) is unique within each partition.
            partition = text(su, "SELECT tableoid::regclass::text FROM audit_entry WHERE chain_id = '" + chain + "' AND seq = " + target);
            nodeLevel = scalar(su, "SELECT level FROM audit_tree_node WHERE chain_id = '" + chain + "' ORDER BY level, idx LIMIT 1");
            nodeIndex = scalar(su, "SELECT idx FROM audit_tree_node WHERE chain_id = '" + chain + "' ORDER BY level, idx LIMIT 1");
            note = text(su, "SELECT note FROM audit_checkpoint WHERE chain_id = '" + chain + "' AND seq = " + lastCheckpoint);
        }
        String row = "chain_id = '" + chain + "' AND seq = ";
        tamper("change a field",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE " + row + target,
                        "UPDATE audit_entry SET subject = 'mallory' WHERE " + row + target),
                List.of("UPDATE audit_entry a SET subject = s.subject FROM saved s WHERE a.id = s.id", "DROP TABLE saved"),
                target, "was changed after it was written", v -> {
                    // The evidence, as the offline verifier's --json gives it: the hash stored, the hash of the fields now.
                    assertEquals("RECORD_CHANGED", v.getString("problems[0].kind"), v.prettify());
                    String expected = v.getString("problems[0].expected");
                    String found = v.getString("problems[0].found");
                    assertTrue(expected != null && found != null && !expected.equals(found), v.prettify());
                    assertEquals(null, v.<Object>get("problems[0].records"), v.prettify());
                });
        tamper("delete a row",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_entry WHERE " + row + target,
                        "DELETE FROM audit_entry WHERE " + row + target),
                List.of("INSERT INTO audit_entry OVERRIDING SYSTEM VALUE SELECT * FROM saved", "DROP TABLE saved"),
                target, "records are missing");
        tamper("swap two rows",
                List.of("UPDATE audit_entry SET seq = -seq WHERE " + row + target + " OR " + row + (target + 1),
                        "UPDATE audit_entry SET seq = CASE WHEN seq = -" + target + " THEN " + (target + 1) + " ELSE " + target
                                + " END WHERE chain_id = '" + chain + "' AND seq IN (-" + target + ", -" + (target + 1) + ")"),
                List.of("UPDATE audit_entry SET seq = -seq WHERE " + row + target + " OR " + row + (target + 1),
                        "UPDATE audit_entry SET seq = CASE WHEN seq = -" + target + " THEN " + (target + 1) + " ELSE " + target
                                + " END WHERE chain_id = '" + chain + "' AND seq IN (-" + target + ", -" + (target + 1) + ")"),
                target, "was changed after it was written|out of order");
        tamper("insert a forged row",
                List.of("DROP INDEX " + partition + "_chain_seq",
                        "INSERT INTO audit_entry (format, chain_id, seq, event_time, request_id, kind, subject, uri, entry_hash) "
                        + "SELECT format, chain_id, seq, event_time, 'forged', kind, 'mallory', uri, entry_hash "
                        + "FROM audit_entry WHERE " + row + target),
                List.of("DELETE FROM audit_entry WHERE request_id = 'forged'",
                        "CREATE UNIQUE INDEX " + partition + "_chain_seq ON " + partition + " (chain_id, seq)"),
                target, "out of order or repeated|was changed after it was written");
        tamper("alter a tree node",
                List.of("CREATE TEMP TABLE saved AS SELECT * FROM audit_tree_node WHERE chain_id = '" + chain + "' AND level = "
                        + nodeLevel + " AND idx = " + nodeIndex,
                        "UPDATE audit_tree_node SET hash = repeat('ab', 32) WHERE chain_id = '" + chain + "' AND level = " + nodeLevel
                                + " AND idx = " + nodeIndex),
                List.of("UPDATE audit_tree_node n SET hash = s.hash FROM saved s WHERE n.chain_id = s.chain_id AND n.level = s.level "
                        + "AND n.idx = s.idx", "DROP TABLE saved"),
                (nodeIndex << nodeLevel) + 1, "stored node", v -> {
                    // A record whose inclusion path runs through the changed node is not given a proof that would
                    // fail offline, nor claimed proven: 409, saying why.
                    String beside = requestIdAt(chain, ((nodeIndex ^ 1) << nodeLevel) + 1);
                    var refused = given().header("Authorization", "Bearer " + auditor).queryParam("requestId", beside)
                            .get("/audit/proof").then().statusCode(409).extract().jsonPath();
                    assertTrue(refused.getString("error").contains("does not verify against the checkpoint at size"),
                            refused.prettify());
                    assertEquals("NODE_MISMATCH", v.getString("problems[0].kind"), v.prettify());
                    assertEquals(repeatAb(), v.getString("problems[0].found"), v.prettify());
                    assertEquals((nodeIndex << nodeLevel) + 1, v.getLong("problems[0].records.first"), v.prettify());
                    assertEquals((nodeIndex + 1) << nodeLevel, v.getLong("problems[0].records.last"), v.prettify());
                });

        // A checkpoint re-signed with a key of the intruder's own (and that key added to audit_key): refused, untrusted.
        var intruder = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        var intruderKey = VerifierKey.of("quaestor.audit", intruder.getPublic());
        var original = Checkpoint.open(note, List.of(VerifierKey.parse(
                given().get("/.well-known/quaestor-audit-key").then().extract().<String>path("vkey"))));
        String forged = NoteSigner.checkpoint(original.origin(), original.size(), original.root(), Instant.now(), intruderKey,
                intruder.getPrivate()).note();
        tamper("re-sign a checkpoint with a key nobody pinned",
                List.of("INSERT INTO audit_key (key_id, algorithm, public_key, created_at, vkey) VALUES ('" + intruderKey.keyIdHex()
                        + "', 'Ed25519', 'intruder', now(), '" + intruderKey + "')",
                        "UPDATE audit_checkpoint SET note = '" + forged + "' WHERE " + row + lastCheckpoint),
                List.of("UPDATE audit_checkpoint SET note = '" + note + "' WHERE " + row + lastCheckpoint,
                        "DELETE FROM audit_key WHERE key_id = '" + intruderKey.keyIdHex() + "'"),
                lastCheckpoint, "not trusted");
    }

    @Test
    void aKeyFoundOnlyInTheDatabaseIsNamedAsUntrustedAndNeverUsed() throws Exception {
        var stranger = VerifierKey.of("quaestor.audit", KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic());
        try (Connection su = superuser()) {
            su.createStatement().execute("INSERT INTO audit_key (key_id, algorithm, public_key, created_at, vkey) VALUES ('"
                    + stranger.keyIdHex() + "', 'Ed25519', 'stranger', now(), '" + stranger + "')");
        }
        try {
            JsonPath v = onlineVerify();
            assertTrue(v.getList("warnings", String.class).stream().anyMatch(w -> w.contains(stranger.keyIdHex()) && w.contains("not")),
                    v.prettify());
            assertTrue(v.getList("trustedKeys", String.class).stream().noneMatch(k -> k.contains(stranger.keyIdHex())), v.prettify());
            String offline = offlineVerify(true);
            assertTrue(offline.contains("WARNING") && offline.contains(stranger.keyIdHex()), offline);
        } finally {
            try (Connection su = superuser()) {
                su.setAutoCommit(false);
                su.createStatement().execute("SET LOCAL session_replication_role = replica");
                su.createStatement().execute("DELETE FROM audit_key WHERE key_id = '" + stranger.keyIdHex() + "'");
                su.commit();
            }
        }
    }
}
