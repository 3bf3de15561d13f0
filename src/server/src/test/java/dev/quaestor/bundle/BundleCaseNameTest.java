package dev.quaestor.bundle;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The case a bundle is for ({@code forCase}: a case's name is its title) is named in full in the bundle, and on record
 * only by its length and SHA-256: in the call's record ({@code audit/bundle}) as in the making's, whether the bundle is
 * made or not.
 */
@QuarkusTest
class BundleCaseNameTest {

    private static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":"
            + "\"file:///docs/handbook/welcome.md\"}}";

    @Inject
    AuditLog log;

    private static io.restassured.response.Response ask(String body) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor("auditor")).contentType(ContentType.JSON).body(body)
                .post("/audit/bundle");
    }

    @Test
    void theCaseABundleIsForIsOnRecordOnlyByItsLengthAndHash() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String rid = Rpc.call(alice, Rpc.initialize(alice, "2025-06-18"), READ).statusCode(200).extract().header("X-Request-Id");
        assertTrue(log.signCheckpointNow(), "under a signed checkpoint, so the bundle has proofs");
        String title = "CASE-40 secret title";
        Instant before = Instant.now();

        var made = ask("{\"requestIds\":[\"" + rid + "\"],\"forCase\":\"" + title + "\"}");
        assertEquals(200, made.statusCode(), made.asString());
        String readme = new String(BundleZip.open(made.asByteArray()).files().get("README.txt"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("for case " + title), "the bundle names the case in full: " + readme);
        var notMade = ask("{\"requestIds\":[\"no-such-request\"],\"forCase\":\"" + title + "\"}");
        assertEquals(409, notMade.statusCode(), notMade.asString());
        var invalid = ask("{\"requestIds\":[\"" + rid + "\"],\"search\":{\"subject\":\"alice\"},\"forCase\":\"" + title + "\"}");
        assertEquals(400, invalid.statusCode(), invalid.asString());

        String hashed = dev.quaestor.bundle.EvidenceBundles.caseNamed(title);
        for (var answer : java.util.List.of(made, notMade, invalid)) {
            var call = AuditRow.list("request_id = ? AND method = 'audit/bundle'", answer.header("X-Request-Id"));
            assertEquals(1, call.size());
            assertTrue(call.get(0).detail.contains(hashed), call.get(0).detail);
            assertTrue(call.get(0).detail.contains(answer == made || answer == invalid ? rid : "no-such-request"), call.get(0).detail);
        }
        var records = AuditRow.list("event_time >= ? AND detail LIKE ?", before, "%secret title%");
        assertEquals(0, records.size(), "no record names the case: " + records.stream().map(r -> r.method + ": " + r.detail).toList());
        // The three calls, and the making of the two that were read (the third was refused before its selection was known).
        assertEquals(5, AuditRow.list("event_time >= ? AND method LIKE 'audit/bundle%' AND subject = 'auditor' AND detail LIKE ?", before,
                "%" + hashed + "%").size(), "each call and each making names the case by its hash");
    }
}
