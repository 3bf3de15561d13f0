package dev.quaestor;

import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Repo;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Evidence for one question: after a read, an auditor fetches the proof of that request's records
 * from {@code /audit/proof} and checks it offline with quaestor-verify against the pinned key: both
 * records, the bytes' SHA-256, nothing of anyone else's records. Fetching it is itself on record. Two
 * checkpoints of the log are shown consistent (the log only grew).
 */
@QuarkusTest
class AuditProofTest {

    @jakarta.inject.Inject
    dev.quaestor.audit.AuditLog audit;

    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");

    /** The proof once the request's records are under a signed checkpoint (409 until then). */
    private Response proofOf(String requestId) {
        assertTrue(audit.signCheckpointNow(), "a checkpoint signs the head");
        return given().header("Authorization", "Bearer " + auditor).queryParam("requestId", requestId).get("/audit/proof");
    }

    private int verifier(String... args) {
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(args, print, print);
        last = out.toString(StandardCharsets.UTF_8);
        return code;
    }

    private String last;

    @Test
    void oneRequestIsProvenOfflineWithoutDisclosingAnyOther() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        String read = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";
        String requestId = Rpc.call(alice, session, read).statusCode(200).extract().header("X-Request-Id");
        String other = Rpc.call(alice, session, read).statusCode(200).extract().header("X-Request-Id");
        assertNotNull(requestId);

        Instant asked = Instant.now();
        Response r = proofOf(requestId);
        AuditQueryRefusalTest.namesItsRecord(r, "audit/proof");
        String proof = r.asString();
        Path file = tmp.resolve(requestId + ".tlog-proof");
        Files.writeString(file, proof);
        Path key = tmp.resolve("audit.vkey");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().statusCode(200).extract().<String>path("vkey"));

        assertEquals(2, proof.split("c2sp.org/tlog-proof@v1\n", -1).length - 1, "one block per record: DECISION and OUTCOME");
        assertTrue(proof.length() < 2 * 4096, "a proof block stays under 4 KiB: " + proof.length());
        assertFalse(proof.contains(other), "no other request's content");

        assertEquals(Main.VERIFIED, verifier("check", file.toString(), "--trust", key.toString()), last);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(Repo.CONTENT.resolve("docs/handbook/welcome.md"))));
        assertTrue(last.contains("file:///docs/handbook/welcome.md") && last.contains(sha) && last.contains("DECISION")
                && last.contains("OUTCOME"), last);

        // One byte changed anywhere in the record makes the check fail.
        Files.writeString(file, proof.replace("extra ", "extra A"));
        assertEquals(Main.NOT_VERIFIED, verifier("check", file.toString(), "--trust", key.toString()), last);

        // The fetch itself is on record.
        assertTrue(AuditRow.count("kind = 'AUDIT_READ' and method = 'audit/proof' and detail like ? and event_time >= ?",
                "%" + requestId + "%", asked.minusSeconds(1)) >= 1);

        // An unknown request: 404; not yet checkpointed ones get 409 with Retry-After (seen above as a wait).
        given().header("Authorization", "Bearer " + auditor).queryParam("requestId", "no-such-request").get("/audit/proof")
                .then().statusCode(404);
        // Only auditors.
        given().header("Authorization", "Bearer " + alice).queryParam("requestId", requestId).get("/audit/proof").then().statusCode(403);
    }

    @Test
    void aProofNotYetPossibleIsOnRecordAsLetInThenUnavailable() {
        // A request whose records no checkpoint covers yet (one may be signed meanwhile: then another is asked for).
        Response r = null;
        for (int i = 0; i < 3 && (r == null || r.statusCode() != 409); i++) {
            String requestId = dev.quaestor.audit.record.RequestIds.next();
            audit.append(dev.quaestor.audit.record.AuditEvent.of(dev.quaestor.audit.record.AuditEvent.Kind.ADMIN, requestId)
                    .method("test/unproven").decision("ALLOW").outcome("ok").build());
            r = given().header("Authorization", "Bearer " + auditor).queryParam("requestId", requestId).get("/audit/proof");
        }
        assertEquals(409, r.statusCode(), r.asString());
        assertEquals("10", r.header("Retry-After"));
        var rows = AuditQueryRefusalTest.letInThenEnded(r, "audit/proof");
        assertEquals("unavailable", rows.get(1).outcome);
        assertTrue(rows.get(1).detail.contains(r.jsonPath().getString("error")), rows.get(1).detail);
    }

    @Test
    void twoCheckpointsOfTheLogAreConsistent() throws Exception {
        String log = given().get("/.well-known/quaestor-audit-key").then().extract().path("log");
        var verified = given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
        long first = verified.getLong("logs.find { it.log == '" + log + "' }.signedThrough");
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        for (int i = 0; i < 5; i++) {
            Rpc.call(alice, session, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}").statusCode(200);
        }
        assertTrue(audit.signCheckpointNow(), "a checkpoint signs the head");
        verified = given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract().jsonPath();
        long second = verified.getLong("logs.find { it.log == '" + log + "' }.signedThrough");
        assertTrue(second > first, first + " -> " + second);

        Path old = tmp.resolve("old.note");
        Path now = tmp.resolve("new.note");
        Path consistency = tmp.resolve("proof.txt");
        Response oldNote = given().header("Authorization", "Bearer " + auditor).queryParam("log", log).queryParam("size", first)
                .get("/audit/checkpoint");
        AuditQueryRefusalTest.namesItsRecord(oldNote, "audit/checkpoint");
        Files.writeString(old, oldNote.asString());
        Files.writeString(now, given().header("Authorization", "Bearer " + auditor).queryParam("log", log).queryParam("size", second)
                .get("/audit/checkpoint").then().statusCode(200).extract().asString());
        Response proven = given().header("Authorization", "Bearer " + auditor).queryParam("log", log).queryParam("from", first)
                .queryParam("to", second).get("/audit/consistency");
        AuditQueryRefusalTest.namesItsRecord(proven, "audit/consistency");
        Files.writeString(consistency, proven.asString());
        Path key = tmp.resolve("audit.vkey");
        Files.writeString(key, given().get("/.well-known/quaestor-audit-key").then().extract().<String>path("vkey"));
        assertEquals(Main.VERIFIED, verifier("consistency", old.toString(), now.toString(), consistency.toString(), "--trust",
                key.toString()), last);
        // A proof hash changed: it no longer shows the later log extends the earlier one.
        String text = Files.readString(consistency);
        String[] lines = text.split("\n");
        String lastHash = lines[lines.length - 1];
        String flipped = (lastHash.charAt(0) == 'A' ? 'B' : 'A') + lastHash.substring(1);
        Files.writeString(consistency, text.replace(lastHash, flipped));
        assertEquals(Main.NOT_VERIFIED, verifier("consistency", old.toString(), now.toString(), consistency.toString(), "--trust",
                key.toString()), last);
    }
}
