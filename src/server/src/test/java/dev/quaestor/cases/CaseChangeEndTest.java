package dev.quaestor.cases;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.support.AuditRow;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestPostgres;
import dev.quaestor.support.Wait;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A change to a case is on record as {@code ok} before it is stored, and that record does not stand alone for what did
 * not happen: a change whose store fails after its record is on record as not stored ({@code error}) under its request
 * id; a change stored whose answer does not reach the client is on record as stored with its answer not delivered
 * ({@code aborted}), never as not made. A request added to a case is looked for in the audit log only once the change
 * is on record; one the log does not hold is refused as before, and on record as not stored under the change's id; one
 * whose records a hold kept after their month was archived is held by the log, and added.
 */
@QuarkusTest
class CaseChangeEndTest {

    private static RequestSpecification as(String user) {
        return given().header("Authorization", "Bearer " + TestIssuer.tokenFor(user)).contentType("application/json");
    }

    private static Response open(String title) {
        return as("auditor").body("{\"title\":\"" + title + "\"}").post("/audit/cases").then().statusCode(201).extract().response();
    }

    private static List<AuditRow> changes(long caseId, String method) {
        return AuditRow.list("uri = ? AND method = ? ORDER BY id", AuditCase.uriOf(caseId), method);
    }

    private static Connection superuser() throws Exception {
        return DriverManager.getConnection(TestDatabase.url(), TestPostgres.SUPERUSER, "");
    }

    @Test
    void aChangeWhoseStoreFailsAfterItsRecordIsOnRecordAsNotStored() throws Exception {
        long id = open("Store fails").jsonPath().getLong("id");
        String text = "refused at commit " + System.nanoTime();
        // The database refuses the note at its commit, after its record (a deferred constraint, as a real one would).
        try (Connection c = superuser(); var s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_refuse_at_commit() RETURNS trigger LANGUAGE plpgsql AS "
                    + "$$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$");
            s.execute("CREATE CONSTRAINT TRIGGER test_refuse_at_commit AFTER INSERT ON audit_case_note DEFERRABLE INITIALLY DEFERRED"
                    + " FOR EACH ROW WHEN (NEW.body LIKE 'refused at commit %') EXECUTE FUNCTION test_refuse_at_commit()");
            try {
                as("auditor").body("{\"text\":\"" + text + "\"}").post("/audit/cases/" + id + "/notes").then().statusCode(500);
            } finally {
                s.execute("DROP TRIGGER test_refuse_at_commit ON audit_case_note");
                s.execute("DROP FUNCTION test_refuse_at_commit()");
            }
        }
        assertEquals(List.of(), as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath().getList("notes"),
                "the note was not stored");
        // Nothing more is added once the 500 is answered: its end is on record by the change's own second record.
        Thread.sleep(500);
        var records = changes(id, "audit/cases/add-note");
        assertEquals(List.of("ok", "error"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals(List.of("ADMIN", "ALLOW"), List.of(records.get(1).kind, records.get(1).decision));
        assertTrue(records.get(1).detail.startsWith(records.get(0).detail + "; not stored: the change recorded as request "
                + records.get(0).requestId + " did not commit"), records.get(1).detail);
    }

    @Test
    void aChangeStoredWhoseAnswerDoesNotReachTheClientIsOnRecordAsStoredAndNotDelivered() throws Exception {
        long id = open("Answer lost").jsonPath().getLong("id");
        String token = TestIssuer.tokenFor("auditor");
        String body = "{\"text\":\"stored, answer lost\"}";
        // The note waits for the table, held by another transaction; meanwhile its client leaves (a reset). Then the
        // note is stored, and its answer has nowhere to go.
        try (Connection held = superuser()) {
            held.setAutoCommit(false);
            try (var s = held.createStatement()) {
                s.execute("LOCK TABLE audit_case_note IN EXCLUSIVE MODE");
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
                socket.getOutputStream().write(("POST /audit/cases/" + id + "/notes HTTP/1.1\r\nHost: localhost\r\n"
                        + "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\nContent-Length: "
                        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body).getBytes(StandardCharsets.UTF_8));
                socket.getOutputStream().flush();
                Wait.until("the note waits for the table held", Duration.ofSeconds(10), CaseChangeEndTest::aNoteWaits);
                socket.setSoLinger(true, 0);
            }
            Thread.sleep(300); // the server sees the connection gone before the note is stored
            held.rollback();
        }
        Wait.until("a second record of the note", Duration.ofSeconds(10), () -> changes(id, "audit/cases/add-note").size() >= 2);
        assertEquals(List.of("stored, answer lost"), as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract()
                .jsonPath().getList("notes.text"), "the note is stored");
        var records = changes(id, "audit/cases/add-note");
        assertEquals(List.of("ok", "aborted"), records.stream().map(r -> r.outcome).toList(), records.toString());
        assertEquals(records.get(0).requestId, records.get(1).requestId, "under one request id");
        assertEquals("ALLOW", records.get(1).decision);
        assertTrue(records.get(1).detail.startsWith(records.get(0).detail + "; the change is stored; the answer did not reach the client"),
                records.get(1).detail);
    }

    @Test
    void aRequestIsLookedForInTheLogOnlyOnceItsAddingIsOnRecord() throws Exception {
        Response made = open("Requests");
        long id = made.jsonPath().getLong("id");
        String absent = "no-such-request-" + System.nanoTime();
        Response refused = as("auditor").body("{\"requestId\":\"" + absent + "\"}").post("/audit/cases/" + id + "/requests")
                .then().statusCode(400).extract().response();
        assertEquals("the audit log holds no record of request " + absent, refused.jsonPath().getString("error"));
        var records = changes(id, "audit/cases/add-request");
        // On record before the log was read (ok), then not stored, under the same request id, which the answer names.
        assertEquals(List.of("ALLOW/ok/added request " + absent, "ALLOW/invalid/added request " + absent
                + "; not stored: the audit log holds no record of request " + absent),
                records.stream().map(r -> r.decision + "/" + r.outcome + "/" + r.detail).toList());
        String requestId = refused.header("X-Request-Id");
        assertNotNull(requestId, "the refusal names its record");
        assertEquals(List.of(requestId, requestId), records.stream().map(r -> r.requestId).toList());

        // A request the log holds (the case's own opening) is added, with its one record.
        String present = AuditRow.list("uri = ? AND method = 'audit/cases/create'", AuditCase.uriOf(id)).get(0).requestId;
        as("auditor").body("{\"requestId\":\"" + present + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(200);
        Thread.sleep(300);
        records = changes(id, "audit/cases/add-request");
        assertEquals(3, records.size(), records.toString());
        assertEquals("ALLOW/ok/added request " + present, records.get(2).decision + "/" + records.get(2).outcome + "/" + records.get(2).detail);
        assertEquals(List.of(present), as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath()
                .getList("requests.requestId"));
    }

    @Test
    void aRequestWhoseRecordsAHoldKeptAfterTheirMonthWasArchivedIsAdded() throws Exception {
        long id = open("Archived request").jsonPath().getLong("id");
        long hold = as("auditor").body("{\"scope\":\"CASE\",\"from\":\"2001-01-01T00:00:00Z\",\"reason\":\"keep\"}")
                .post("/audit/cases/" + id + "/holds").then().statusCode(201).extract().jsonPath().getLong("id");
        // A record its month no longer holds in the database, kept by the hold (as retention keeps it before archiving).
        String archived = "archived-" + System.nanoTime();
        try (Connection c = superuser(); var ps = c.prepareStatement("INSERT INTO audit_held_record (hold_id, chain_id, seq, event_time,"
                + " request_id, subject, uri, checkpoint_size, proof, run_id, kept_at) VALUES (?, 'test-log', ?, TIMESTAMP WITH TIME ZONE"
                + " '2001-01-15 00:00:00+00', ?, 'alice', 'file:///docs/x.md', 1, 'proof', 0, now())")) {
            ps.setLong(1, hold);
            ps.setLong(2, System.nanoTime());
            ps.setString(3, archived);
            ps.executeUpdate();
        }
        as("auditor").body("{\"requestId\":\"" + archived + "\"}").post("/audit/cases/" + id + "/requests").then().statusCode(200);
        assertEquals(List.of(archived), as("auditor").get("/audit/cases/" + id).then().statusCode(200).extract().jsonPath()
                .getList("requests.requestId"));
    }

    /** Whether a connection waits for a lock to insert into the notes table. */
    private static boolean aNoteWaits() throws Exception {
        try (Connection c = superuser(); var ps = c.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname ="
                + " current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND query ILIKE '%audit_case_note%'");
                var rs = ps.executeQuery()) {
            return rs.next() && rs.getInt(1) > 0;
        }
    }
}
