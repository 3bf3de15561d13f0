package dev.quaestor.bundle;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.evidence.bundle.Manifest;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.Hmac;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The case a bundle is for ({@code forCase}: a case's name is its title) is named in full in the bundle, and on record
 * only by its HMAC-SHA-256 under a key of the bundle's own, which its manifest gives the bundle's holders: in the call's
 * record ({@code audit/bundle}) as in the making's, whether the bundle is made or not.
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
    void theCaseABundleIsForIsOnRecordOnlyByItsHmacUnderTheBundlesKey() throws Exception {
        String alice = TestIssuer.tokenFor("alice");
        String rid = Rpc.call(alice, Rpc.initialize(alice, "2025-06-18"), READ).statusCode(200).extract().header("X-Request-Id");
        assertTrue(log.signCheckpointNow(), "under a signed checkpoint, so the bundle has proofs");
        String title = "CASE-40 secret title";
        Instant before = Instant.now();

        var made = ask("{\"requestIds\":[\"" + rid + "\"],\"forCase\":\"" + title + "\"}");
        assertEquals(200, made.statusCode(), made.asString());
        var files = BundleZip.open(made.asByteArray()).files();
        String readme = new String(files.get("README.txt"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("for case " + title), "the bundle names the case in full: " + readme);
        String key = Manifest.read(files.get("manifest.json")).caseSealKey();
        String sealed = "a case named hmac-sha256=" + Hmac.sha256(key, title);
        var notMade = ask("{\"requestIds\":[\"no-such-request\"],\"forCase\":\"" + title + "\"}");
        assertEquals(404, notMade.statusCode(), notMade.asString());
        var invalid = ask("{\"requestIds\":[\"" + rid + "\"],\"search\":{\"subject\":\"alice\"},\"forCase\":\"" + title + "\"}");
        assertEquals(400, invalid.statusCode(), invalid.asString());

        String plain = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(title.getBytes(StandardCharsets.UTF_8)));
        var seen = new java.util.HashSet<String>();
        for (var answer : java.util.List.of(made, notMade, invalid)) {
            var call = AuditRow.list("request_id = ? AND method = 'audit/bundle'", answer.header("X-Request-Id"));
            assertEquals(1, call.size());
            String detail = call.get(0).detail;
            assertTrue(detail.contains(answer == made || answer == invalid ? rid : "no-such-request"), detail);
            assertTrue(!detail.contains(plain), "not by its plain SHA-256: " + detail);
            // Each call seals the name under a key of its own, so no two records of calls can be matched by the case.
            var m = java.util.regex.Pattern.compile("a case named hmac-sha256=([0-9a-f]{64})").matcher(detail);
            assertTrue(m.find(), detail);
            assertTrue(seen.add(m.group(1)), "a key of its own: " + detail);
        }
        var records = AuditRow.list("event_time >= ? AND detail LIKE ?", before, "%secret title%");
        assertEquals(0, records.size(), "no record names the case: " + records.stream().map(r -> r.method + ": " + r.detail).toList());
        // The made bundle's call and making name the case under the key its manifest gives; the one not made, under a key
        // of its own (the invalid one was refused before its selection was known).
        assertEquals(List.of("audit/bundle", "audit/bundle/made"), AuditRow.list("event_time >= ? AND method LIKE 'audit/bundle%'"
                + " AND subject = 'auditor' AND detail LIKE ? ORDER BY id", before, "%" + sealed + "%").stream().map(r -> r.method).toList(),
                "the made bundle's call and making name the case by its HMAC under the manifest's key");
        assertEquals(2, AuditRow.list("request_id = ? AND method LIKE 'audit/bundle%' AND detail LIKE '%a case named hmac-sha256=%'",
                notMade.header("X-Request-Id")).size(), "the bundle not made: its call and why not");
        assertEquals(0, AuditRow.list("event_time >= ? AND detail LIKE ?", before, "%" + plain + "%").size());
    }
}
