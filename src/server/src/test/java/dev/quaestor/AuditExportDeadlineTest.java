package dev.quaestor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditPools;
import dev.quaestor.audit.read.AuditExport;
import dev.quaestor.audit.read.LongReads;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.support.AuditRow;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.agroal.DataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Long reads of the audit log: an export whose client reads nothing is cut off at its write deadline and gives back
 * its place, holding no connection meanwhile; an export whose client leaves part-way, or is cut off, is on record as
 * {@code aborted} after its {@code ok}, and one delivered whole is not; an export holds each log as it stood when it
 * started; past the caps on exports and verifies the call gets 429 with {@code Retry-After} and is on record.
 */
@QuarkusTest
@TestProfile(AuditExportDeadlineTest.ShortDeadline.class)
class AuditExportDeadlineTest {

    public static class ShortDeadline implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // 1 s per write plus 1 MiB/s: a 64 KiB write gets about 1.06 s.
            return Map.of("quaestor.streams.write-deadline", "1S", "quaestor.streams.min-write-rate", "1048576",
                    "quaestor.audit.long-reads.exports-per-person", "1",
                    // A verify that finds the place taken waits 1 s for it, then is refused.
                    "quaestor.audit.long-reads.verify-wait", "1S");
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AuditLog log;
    @Inject
    AuditExport reader;
    @Inject
    LongReads longReads;
    @Inject
    MeterRegistry metrics;
    @Inject
    @DataSource(AuditPools.READ)
    AgroalDataSource readPool;

    /** Enough records (about 6 MB of export) that a client reading nothing fills every buffer on the way. */
    @BeforeEach
    void aLargeLog() {
        if (AuditRow.count("method = 'test/filler'") >= 1500) {
            return;
        }
        String padding = "x".repeat(4000);
        var pending = new ArrayList<PendingCommit>();
        for (int i = 0; i < 1500; i++) {
            pending.add(log.submit(AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next()).method("test/filler")
                    .decision("ALLOW").outcome("ok").detail(padding).build()));
            if (pending.size() == 500) {
                pending.forEach(PendingCommit::await);
                pending.clear();
            }
        }
        pending.forEach(PendingCommit::await);
    }

    @Test
    void anExportWhoseClientReadsNothingIsCutOffAndGivesBackItsPlace() throws Exception {
        double cutsBefore = cuts();
        String token = TestIssuer.tokenFor("auditor");
        String to = uniqueTo();
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
            long sent = System.nanoTime();
            OutputStream out = s.getOutputStream();
            out.write(("GET /audit/export?to=" + to + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            // Once the export waits on the client (its buffers full, a write not taken), it holds no connection: the
            // whole read pool can be taken. Taken sooner, the pool would race the export's own page reads.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> waitingExports() > 0);
            var held = new ArrayList<Connection>();
            try {
                int size = readPool.getConfiguration().connectionPoolConfiguration().maxSize();
                for (int i = 0; i < size; i++) {
                    held.add(readPool.getConnection());
                }
            } finally {
                for (Connection c : held) {
                    c.close();
                }
            }
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() -> cuts() > cutsBefore);
            double seconds = (System.nanoTime() - sent) / 1e9;
            assertTrue(seconds < 6, "cut off within its deadline, not after the export: " + seconds + " s");
            // Its place is back while the client still reads nothing: the same auditor (one export at a time in this
            // profile) gets the whole export.
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> activeExports() == 0);
            String whole = given().header("Authorization", "Bearer " + token).get("/audit/export").then().statusCode(200)
                    .extract().asString();
            assertTrue(whole.length() > 5_500_000, "the whole export: " + whole.length());
            // What the cut-off client gets, once it reads, is a broken-off response: no end of the chunked body.
            byte[] got = readAll(s.getInputStream());
            String response = new String(got, StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200"), response.substring(0, Math.min(response.length(), 200)));
            int head = response.indexOf("\r\n\r\n");
            assertTrue(head > 0, "the response's head arrived whole");
            // The body only: when the cut comes before any of it reaches the client, the head ends with the request id,
            // which may end in 0 ("…c0\r\n\r\n") without being the end of a chunked body.
            String body = response.substring(head + 4);
            assertFalse(("\r\n" + body).endsWith("\r\n0\r\n\r\n"),
                    "the response must not look complete: a body of " + body.length() + " bytes of " + whole.length());
            assertTrue(got.length < whole.length() / 2, "cut off part-way: " + got.length + " bytes of " + whole.length());
        }
        // Its ok is not left alone for the export the client did not get.
        abortedAfterOk(to);
    }

    @Test
    void anExportWhoseClientLeavesPartWayIsOnRecordAsAbortedAfterItsOk() throws Exception {
        String token = TestIssuer.tokenFor("auditor");
        String to = uniqueTo();
        int read = 0;
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(4096);
            s.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
            s.getOutputStream().write(("GET /audit/export?format=csv&to=" + to + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Authorization: Bearer " + token + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            // A little of the answer, then the client is gone (a reset: it does not read the rest).
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            while (read < 32 * 1024) {
                int n = in.read(buf);
                assertTrue(n > 0, "the export was still being sent");
                read += n;
            }
            s.setSoLinger(true, 0);
        }
        AuditRow aborted = abortedAfterOk(to);
        assertTrue(aborted.bytes != null && aborted.bytes > 0 && aborted.bytes < 5_000_000,
                "how far it got, part of the export: " + aborted.bytes);
        // Its place is back: the same auditor (one export at a time in this profile) exports again.
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> activeExports() == 0);
        given().header("Authorization", "Bearer " + token).get("/audit/export?format=csv&to=" + uniqueTo()).then().statusCode(200);
    }

    @Test
    void aConsoleExportWhoseClientLeavesPartWayClaimsNoCountOfItems() throws Exception {
        String requestId;
        try (Socket s = new Socket()) {
            requestId = consoleExportReadPartWay(s);
            // The client stops reading (past the write deadline), then is gone.
            Thread.sleep(3000);
            s.setSoLinger(true, 0);
        }
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(
                () -> AuditRow.count("request_id = ? AND method = 'console/export/done'", requestId) >= 1);
        AuditRow done = AuditRow.first("request_id = ? AND method = 'console/export/done'", requestId);
        assertEquals("aborted", done.outcome, done.toString());
        assertTrue(done.bytes != null && done.bytes > 0, "the bytes written by then: " + done.bytes);
        assertEquals(null, done.items, "an export broken off holds no count of what the file holds");
        assertFalse(done.detail.matches(".* [0-9]+ records$"), "no count of records in its detail: " + done.detail);
        assertTrue(done.detail.contains("broken off after " + done.bytes + " bytes"), done.detail);
    }

    @Test
    void aConsoleExportWhoseClientResetsAtOnceIsNotOnRecordAsWritten() throws Exception {
        String requestId;
        try (Socket s = new Socket()) {
            requestId = consoleExportReadPartWay(s);
            // Gone at once, well within the write deadline: a reset, the rest never read.
            s.setSoLinger(true, 0);
        }
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(50)).until(
                () -> AuditRow.count("request_id = ? AND method = 'console/export/done'", requestId) >= 1);
        AuditRow done = AuditRow.first("request_id = ? AND method = 'console/export/done'", requestId);
        assertEquals("aborted", done.outcome, done.toString());
        assertEquals(null, done.items, done.toString());
    }

    @Test
    void anExportDeliveredWholeLeavesNoAbortedRecord() throws Exception {
        String token = TestIssuer.tokenFor("auditor");
        String to = uniqueTo();
        String whole = given().header("Authorization", "Bearer " + token).get("/audit/export?to=" + to).then().statusCode(200)
                .extract().asString();
        assertTrue(whole.length() > 5_500_000, "the whole export: " + whole.length());
        // A record of its end would be queued when the response ends, before the client has read it all; give it time.
        Thread.sleep(1000);
        List<AuditRow> rows = AuditRow.list("method = 'audit/export' AND detail LIKE ? ORDER BY id", "%to=" + to + "%");
        assertEquals(1, rows.size(), "only the export's ok: " + rows);
        assertEquals("ok", rows.get(0).outcome);
    }

    /** An auditor's console export asked on {@code s}, its first 32 KiB read; returns the export's request id. */
    private static String consoleExportReadPartWay(Socket s) throws IOException {
        ConsoleSession console = ConsoleSession.signIn("auditor");
        s.setReceiveBufferSize(4096);
        s.connect(new InetSocketAddress("127.0.0.1", RestAssured.port));
        s.getOutputStream().write(("GET /console/export?format=jsonl HTTP/1.1\r\nHost: localhost\r\nCookie: " + console.cookies()
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        byte[] buf = new byte[4096];
        var head = new ByteArrayOutputStream();
        while (head.size() < 32 * 1024) {
            int n = in.read(buf);
            assertTrue(n > 0, "the export was still being sent");
            head.write(buf, 0, n);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        assertTrue(text.startsWith("HTTP/1.1 200"), text.substring(0, Math.min(200, text.length())));
        var id = java.util.regex.Pattern.compile("(?i)X-Request-Id: ([^\r\n]+)").matcher(text);
        assertTrue(id.find(), "the answer names its records");
        return id.group(1).trim();
    }

    /** A {@code to} no other export asks for, after every record: it names the export's records by their detail. */
    private static String uniqueTo() {
        return Instant.parse("2099-01-01T00:00:00Z").plusSeconds(COUNTER.incrementAndGet()).toString();
    }

    private static final java.util.concurrent.atomic.AtomicLong COUNTER = new java.util.concurrent.atomic.AtomicLong();

    /**
     * The export asked with {@code to}: on record as let in ({@code ok}), then, under the same request id, as
     * {@code aborted}, saying its answer did not reach the client; returns that second record.
     */
    private static AuditRow abortedAfterOk(String to) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(
                () -> AuditRow.count("method = 'audit/export' AND detail LIKE ?", "%to=" + to + "%") >= 2);
        List<AuditRow> rows = AuditRow.list("method = 'audit/export' AND detail LIKE ? ORDER BY id", "%to=" + to + "%");
        assertEquals(2, rows.size(), rows.toString());
        AuditRow ok = rows.get(0);
        AuditRow aborted = rows.get(1);
        assertEquals(List.of("AUDIT_READ", "ALLOW", "ok"), List.of(ok.kind, ok.decision, ok.outcome));
        assertEquals(List.of("AUDIT_READ", "ALLOW", "aborted"), List.of(aborted.kind, aborted.decision, aborted.outcome));
        assertEquals(ok.requestId, aborted.requestId, "one call, one request id");
        assertEquals("auditor", aborted.subject);
        assertTrue(aborted.detail.contains("the answer did not reach the client") && aborted.detail.contains("bytes of its body written"),
                aborted.detail);
        return aborted;
    }

    @Test
    void anExportHoldsEachLogAsItStoodWhenItStarted() throws Exception {
        var duringExport = new ArrayList<String>();
        var file = new ByteArrayOutputStream();
        OutputStream slowClient = new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                if (duringExport.isEmpty()) {
                    // The export's first bytes: its records are still being read. Records committed now come after its start.
                    for (int i = 0; i < 3; i++) {
                        String id = RequestIds.next();
                        log.append(AuditEvent.of(AuditEvent.Kind.ADMIN, id).method("test/during-export").decision("ALLOW").outcome("ok").build());
                        duringExport.add(id);
                    }
                }
                file.write(b, off, len);
            }
        };
        reader.exportJsonl(null, null, slowClient);
        assertEquals(3, duringExport.size(), "records were written while the export ran");
        var first = records(file.toString(StandardCharsets.UTF_8));
        for (String id : duringExport) {
            assertFalse(first.requests.contains(id), "a record committed after the export started is not in it: " + id);
        }
        // Each log's records are whole from its first seq to where it ended, with no gap.
        TreeSet<Long> mine = first.seqs;
        assertTrue(mine.size() > 1500, "this replica's log: " + mine.size());
        assertEquals(mine.last() - mine.first() + 1, mine.size(), "no gap in this replica's log");
        // The rule cuts both ways: the next export has them.
        var later = new ByteArrayOutputStream();
        reader.exportJsonl(null, null, later);
        var second = records(later.toString(StandardCharsets.UTF_8));
        assertTrue(second.requests.containsAll(duringExport), "the next export holds the records written during the first");
    }

    @Test
    void pastTheCapsExportsAndVerifiesGet429WithRetryAfterOnRecord() {
        String token = TestIssuer.tokenFor("auditor");
        double refusedBefore = refused("export", "person");
        LongReads.Place mine = longReads.take(LongReads.Kind.EXPORT, "auditor").place();
        assertNotNull(mine);
        try {
            given().header("Authorization", "Bearer " + token).get("/audit/export?format=csv").then()
                    .statusCode(429).header("Retry-After", "10").body("retryAfterSeconds", equalTo(10))
                    .body("error", containsString("the most one person runs at once"));
            var row = AuditRow.first("method = 'audit/export' AND subject = 'auditor' ORDER BY id DESC");
            assertEquals("busy", row.outcome, row.toString());
            assertEquals("ALLOW", row.decision);
            assertTrue(row.detail.contains("refused:"), row.detail);
        } finally {
            mine.close();
        }
        assertEquals(refusedBefore + 1, refused("export", "person"));
        given().header("Authorization", "Bearer " + token).get("/audit/export?format=csv").then().statusCode(200);

        // One verify at a time on a replica, whoever runs it.
        LongReads.Place other = longReads.take(LongReads.Kind.VERIFY, "another-auditor").place();
        assertNotNull(other);
        try {
            given().header("Authorization", "Bearer " + token).get("/audit/verify").then().statusCode(429)
                    .header("Retry-After", "10").body("error", containsString("verifies are running on this server"));
            assertEquals("busy", AuditRow.first("method = 'audit/verify' AND subject = 'auditor' ORDER BY id DESC").outcome);
        } finally {
            other.close();
        }
        given().header("Authorization", "Bearer " + token).get("/audit/verify").then().statusCode(200).body("verified", equalTo(true));
        // A caller without the role is refused as before, and takes no place.
        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("bob")).get("/audit/verify").then().statusCode(403);
    }

    private record Exported(Set<String> requests, TreeSet<Long> seqs) {
    }

    private Exported records(String jsonl) throws IOException {
        var requests = new HashSet<String>();
        var seqs = new TreeSet<Long>();
        for (String line : jsonl.split("\n")) {
            if (!line.startsWith("{\"type\":\"record\"")) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            requests.add(n.path("request").asText());
            if (log.logId().equals(n.path("log").asText())) {
                seqs.add(n.path("seq").asLong());
            }
        }
        return new Exported(requests, seqs);
    }

    private double cuts() {
        return metrics.get("quaestor.http.write.deadline.cuts").tag("kind", "export").counter().count();
    }

    private double waitingExports() {
        return metrics.get("quaestor.http.write.waiting").tag("kind", "export").gauge().value();
    }

    private double activeExports() {
        return metrics.get("quaestor.audit.long.reads.active").tag("kind", "export").gauge().value();
    }

    private double refused(String kind, String cap) {
        return metrics.get("quaestor.audit.long.reads.refused").tags("kind", kind, "cap", cap).counter().count();
    }

    private static byte[] readAll(InputStream in) {
        var got = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        try {
            int n;
            while ((n = in.read(buf)) > 0) {
                got.write(buf, 0, n);
            }
        } catch (IOException e) {
            // reset by the server: what arrived before is what the client got
        }
        return got.toByteArray();
    }
}
