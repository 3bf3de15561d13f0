package dev.quaestor;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.HeldMonth;
import dev.quaestor.support.Repo;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * An administrator's call ({@code ADMIN}) let in does not leave its {@code ok} alone when it is not answered: as for an
 * auditor's read, a second record under its request id says how it ended. A call that fails with a server error no
 * record of its own explains (here a what-if whose database connection ended while it gathered the window's facts)
 * is {@code error}; a call refused for its body once let in is {@code invalid}, the 400 naming the record.
 */
@QuarkusTest
class AdminCallEndTest {

    @Test
    void anExplainRefusedForItsBodyOnceLetInIsOnRecordAsLetInThenInvalid() {
        String uri = "file:///../admin-call-end-" + System.nanoTime() + "/x.md";
        var refused = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"subject\":\"alice\",\"roles\":[\"clinician\"],\"action\":\"read\",\"uri\":\"" + uri + "\"}")
                .post("/admin/policy/explain").then().statusCode(400).extract().response();
        String requestId = refused.header("X-Request-Id");
        assertNotNull(requestId, "the 400 names its record");
        List<AuditRow> records = AuditRow.list("request_id = ? ORDER BY id", requestId);
        assertEquals(List.of("ADMIN/admin/policy/explain/ALLOW/ok", "ADMIN/admin/policy/explain/ALLOW/invalid"),
                records.stream().map(r -> r.kind + "/" + r.method + "/" + r.decision + "/" + r.outcome).toList());
        assertTrue(records.get(1).detail.startsWith(records.get(0).detail + "; "), records.get(1).detail);
        assertTrue(records.get(1).detail.endsWith(refused.jsonPath().getString("error")), records.get(1).detail);
    }

    @Test
    void anExplainWithASourceIpThatIsNotAnAddressIsRefusedNamingTheFieldAndOnRecordAsInvalid() {
        String subject = "ip-" + System.nanoTime();
        var refused = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body("{\"subject\":\"" + subject + "\",\"roles\":[\"safety-officer-oncall\"],\"action\":\"read\","
                        + "\"uri\":\"file:///docs/trials/onco-734/summary.md\",\"sourceIp\":\"not-an-ip\","
                        + "\"time\":\"2026-03-04T22:15:00Z\"}")
                .post("/admin/policy/explain").then().statusCode(400).extract().response();
        assertEquals("sourceIp must be an IPv4 or IPv6 address, not 'not-an-ip'", refused.jsonPath().getString("error"));
        List<AuditRow> records = AuditRow.list("request_id = ? ORDER BY id", refused.header("X-Request-Id"));
        assertEquals(List.of("ok", "invalid"), records.stream().map(r -> r.outcome).toList());
        // The question on record is the one asked, the address and time that decide it included.
        assertTrue(records.get(0).detail.startsWith("subject=" + subject + " "), records.get(0).detail);
        assertTrue(records.get(0).detail.endsWith(" sourceIp=not-an-ip time=2026-03-04T22:15:00Z"), records.get(0).detail);
        assertTrue(records.get(1).detail.endsWith("; sourceIp must be an IPv4 or IPv6 address, not 'not-an-ip'"),
                records.get(1).detail);
    }

    @Test
    void anExplainWhoseBodyCannotBeReadHasWhatWasAskedOnRecordAsSent() {
        String subject = "nina-" + System.nanoTime();
        String body = "{\"subject\":\"" + subject + "\",\n\"rolez\":[\"research-nurse\"],\"action\":\"read\",\"uri\":\"file:///docs/x.md\"}";
        var refused = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(body).post("/admin/policy/explain").then().statusCode(400).extract().response();
        List<AuditRow> records = AuditRow.list("request_id = ? ORDER BY id", refused.header("X-Request-Id"));
        assertEquals(List.of("ok", "invalid"), records.stream().map(r -> r.outcome).toList());
        // The question as sent, its line break escaped: who and what the administrator asked about is on record.
        assertEquals("body as sent: " + body.replace("\n", "\\n"), records.get(0).detail);
        assertTrue(records.get(1).detail.endsWith("; " + refused.jsonPath().getString("error")), records.get(1).detail);
        assertTrue(records.get(1).detail.contains("unknown field 'rolez'"), records.get(1).detail);

        // A body past what a record holds is cut, saying how long it was.
        String long_ = "{\"subject\":\"" + "x".repeat(400) + "\",\"rolez\":[]}";
        var cut = given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin")).contentType("application/json")
                .body(long_).post("/admin/policy/explain").then().statusCode(400).extract().response();
        String detail = AuditRow.list("request_id = ? ORDER BY id", cut.header("X-Request-Id")).get(0).detail;
        assertEquals("body as sent: " + long_.substring(0, 300) + "… (" + long_.length() + " characters)", detail);
    }

    @Test
    void aWhatIfWhoseDatabaseConnectionEndsMidReadIsOnRecordAsLetInThenError() throws Exception {
        var files = new LinkedHashMap<String, String>();
        try (Stream<Path> s = Files.list(Repo.POLICIES)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                files.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        // A window over the month held by another transaction: the what-if waits for it, and its connection is ended
        // from outside meanwhile, as a database restart or a lost connection would.
        String to = "2001-02-01T00:00:" + String.format("%02d", System.nanoTime() % 60) + "Z";
        Map<String, Object> body = Map.of("files", files, "from", "2000-12-01T00:00:00Z", "to", to);
        Instant before = Instant.now();
        int status;
        try (var held = HeldMonth.hold()) {
            var pending = CompletableFuture.supplyAsync(() -> given().header("Authorization", "Bearer " + TestIssuer.tokenFor("admin"))
                    .contentType("application/json").body(body).post("/admin/policy/what-if").statusCode());
            assertTrue(held.endTheWaitingRead(), "the what-if waited for the month held");
            status = pending.get();
        }
        assertEquals(503, status);
        String where = "kind = 'ADMIN' and method = 'admin/policy/what-if' and detail like ? and event_time >= ? order by id";
        Wait.holdsWithin(Duration.ofSeconds(5), () -> AuditRow.list(where, "%to=" + to + "%", before).size() >= 2);
        List<AuditRow> records = AuditRow.list(where, "%to=" + to + "%", before);
        assertEquals(List.of("ok", "error"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals("ALLOW", records.get(1).decision);
        assertTrue(records.get(1).detail.endsWith("not answered: the call failed after it was let in (HTTP 503)"), records.get(1).detail);
        assertNull(records.get(1).bytes);
    }
}
