package dev.quaestor.bundle;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.write.PendingCommit;
import dev.quaestor.audit.record.RequestIds;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.bundle.BundleZip;
import dev.quaestor.evidence.cli.Main;
import dev.quaestor.support.Rpc;
import dev.quaestor.support.TestIssuer;
import dev.quaestor.support.TestTsa;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An evidence bundle of 3 requests out of a log of more than 100,000 records, made by {@code POST /audit/bundle} on a
 * server whose checkpoints are time-stamped by OpenSSL's TSA ({@link TestTsa}): the history between the requests is
 * generated through the audit log's own writer (records of many subjects, in waves the queue holds), so every record
 * is in the log's tree as any other. The bundle is under 64 KiB, checks offline with the verifier's command line, each
 * token passes {@code openssl ts -verify}, its SHA-256 is on record, and it fails, naming the file, when any byte of
 * a record, proof, checkpoint, token, policy file or the manifest is altered, or a file is added or removed.
 */
@QuarkusTest
@TestProfile(EvidenceBundleTest.Profile.class)
class EvidenceBundleTest {

    /** Anchored, with a checkpoint every 5,000 records (not the tests' 20), so that the history is not 5,000 tokens. */
    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quaestor.audit.anchor.poll", "1S", "quaestor.audit.anchor.timeout", "5S", "quaestor.audit.checkpoint-every", "5000");
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(TestTsa.class));
        }
    }

    static final String READ = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/read\",\"params\":{\"uri\":\"file:///docs/handbook/welcome.md\"}}";
    static final int HISTORY = 100_000;

    @Inject
    AuditLog log;
    @Inject
    AgroalDataSource ds;
    @TempDir
    Path tmp;

    private final String auditor = TestIssuer.tokenFor("auditor");

    private String read() {
        String alice = TestIssuer.tokenFor("alice");
        String session = Rpc.initialize(alice, "2025-06-18");
        return Rpc.call(alice, session, READ).statusCode(200).extract().header("X-Request-Id");
    }

    /** {@code count} records through the writer, in waves it holds, of 500 subjects. */
    private void history(int count) {
        int wave = 4000;
        for (int done = 0; done < count; done += wave) {
            var pending = new ArrayList<PendingCommit>();
            for (int i = done; i < Math.min(count, done + wave); i++) {
                pending.add(log.submit(AuditEvent.of(AuditEvent.Kind.DECISION, RequestIds.next())
                        .caller(Caller.bySubject("user-" + i % 500, "10.0." + i % 250 + ".7", "history/1.0")).method("resources/read")
                        .action("read").uri("file:///docs/records/" + i + ".md").decision(i % 10 == 0 ? "DENY" : "ALLOW")
                        .outcome(i % 10 == 0 ? "refused" : "ok").build()));
            }
            pending.forEach(PendingCommit::await);
        }
    }

    private long query(String sql, String... args) throws Exception {
        try (Connection c = ds.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private record Run(int code, String out) {
    }

    private static Run verifier(String... args) {
        var out = new ByteArrayOutputStream();
        var print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int code = Main.run(args, print, print);
        return new Run(code, out.toString(StandardCharsets.UTF_8));
    }

    private io.restassured.response.Response ask(String body) {
        return given().header("Authorization", "Bearer " + auditor).contentType(ContentType.JSON).body(body).post("/audit/bundle");
    }

    @Test
    void threeRequestsOutOfAHundredThousandRecordsMakeABundleThatChecksOfflineAndFailsAtAnyChange() throws Exception {
        String chain = log.logId();
        String first = read();
        long start = System.nanoTime();
        history(HISTORY / 2);
        String second = read();
        history(HISTORY / 2);
        String third = read();
        System.out.printf("generated %,d records in %.1f s%n", HISTORY, (System.nanoTime() - start) / 1e9);
        assertTrue(query("SELECT COUNT(*) FROM audit_entry WHERE chain_id = ?", chain) > HISTORY);

        // Once a checkpoint covers the third request and every checkpoint up to it is time-stamped, the bundle is made.
        String body = "{\"requestIds\":[\"" + first + "\",\"" + second + "\",\"" + third + "\"],\"forCase\":\"CASE-40 records of alice\"}";
        long thirdSeq = query("SELECT MAX(seq) FROM audit_entry WHERE request_id = ?", third);
        await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1)).until(() -> query(
                "SELECT COUNT(*) FROM audit_checkpoint k WHERE k.chain_id = ? AND k.note IS NOT NULL AND k.seq <= "
                        + (thirdSeq + 5000) + " AND NOT EXISTS (SELECT 1 FROM audit_anchor a WHERE a.chain_id = k.chain_id AND a.seq = k.seq)",
                chain) == 0 && query("SELECT COUNT(*) FROM audit_checkpoint WHERE chain_id = ? AND seq >= " + thirdSeq, chain) > 0);
        var answer = ask(body);
        assertEquals(200, answer.statusCode(), answer.asString());
        byte[] zip = answer.asByteArray();
        String made = answer.header("X-Request-Id");
        var parts = new java.util.TreeMap<String, Integer>();
        BundleZip.open(zip).files().forEach((n, b) -> parts.merge(n.contains("/") ? n.substring(0, n.indexOf('/'))
                : n, b.length, Integer::sum));
        System.out.printf("bundle of 3 requests: %,d bytes; by part %s%n", zip.length, parts);
        assertTrue(zip.length < 64 * 1024, zip.length + " bytes: " + parts);

        // Its making is on record with its SHA-256, under the request id of the call.
        String sha = Hex.of(TreeHash.sha256(zip));
        assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle/made' AND outcome = 'ok'"
                + " AND content_sha256 = '" + sha + "' AND bytes = " + zip.length + " AND item_count = 6", made));
        assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle' AND subject = 'auditor'", made));

        Map<String, byte[]> files = BundleZip.open(zip).files();
        String records = new String(files.get("records.jsonl"), StandardCharsets.UTF_8);
        assertEquals(6, records.split("\n").length, records);
        assertTrue(records.contains(first) && records.contains(second) && records.contains(third));
        assertTrue(files.keySet().stream().anyMatch(n -> n.startsWith("policy/")), files.keySet().toString());
        assertTrue(files.keySet().stream().anyMatch(n -> n.startsWith("consistency/")), files.keySet().toString());
        String readme = new String(files.get("README.txt"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("Made by auditor at ") && readme.contains("for case CASE-40 records of alice"), readme);
        assertTrue(readme.contains("request id " + made), readme);

        // Offline, with nothing but the verifier, the pinned key and the TSA's root.
        Path file = Files.write(tmp.resolve("bundle.zip"), zip);
        Path vkey = Files.writeString(tmp.resolve("audit.vkey"), given().get("/.well-known/quaestor-audit-key").then().extract().<String>path("vkey"));
        String root = TestTsa.server().root().toString();
        Run ok = verifier("bundle", "check", file.toString(), "--trust", vkey.toString(), "--tsa-ca", root);
        assertEquals(Main.VERIFIED, ok.code, ok.out);
        assertTrue(ok.out.contains("VERIFIED: 6 record(s), each proven in its log by its proof, at a checkpoint signed by a trusted key"), ok.out);
        assertTrue(ok.out.startsWith("Evidence bundle, SHA-256 " + sha + "\n"), ok.out);
        assertTrue(ok.out.contains("request " + made + ", method audit/bundle/made. If this is the bundle the server made, that record's"
                + " sha256 is " + sha + ","), ok.out);
        assertTrue(ok.out.contains("time-stamped: "), ok.out);

        // Each token, with OpenSSL: the .tsr as the TSA's reply, over the checkpoint's first four lines (the README's command).
        int tokens = 0;
        for (var f : files.entrySet()) {
            if (f.getKey().endsWith(".tsr")) {
                String note = new String(files.get(f.getKey().replace(".tsr", ".note")), StandardCharsets.UTF_8);
                Path text = Files.writeString(tmp.resolve("cp.text"), String.join("\n", List.of(note.split("\n")).subList(0, 4)) + "\n");
                Path reply = Files.write(tmp.resolve("cp.tsr"), f.getValue());
                var p = new ProcessBuilder("openssl", "ts", "-verify", "-in", reply.toString(), "-data", text.toString(), "-CAfile", root)
                        .redirectErrorStream(true).start();
                String said = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, p.waitFor(), said);
                assertTrue(said.contains("Verification: OK"), said);
                tokens++;
            }
        }
        assertTrue(tokens >= 1, files.keySet().toString());

        // Any byte altered in a record, a proof, a checkpoint, a token, a policy file or the manifest: NOT VERIFIED, naming it.
        for (String prefix : List.of("records.jsonl", "proofs/", "checkpoints/", ".tsr", "policy/", "manifest.json", "consistency/", "README.txt")) {
            String name = files.keySet().stream().filter(n -> n.startsWith(prefix) || n.endsWith(prefix)).findFirst().orElseThrow();
            byte[] changed = files.get(name).clone();
            changed[changed.length / 2] ^= 0x04;
            var altered = new LinkedHashMap<>(files);
            altered.put(name, changed);
            Run bad = verifier("bundle", "check", Files.write(tmp.resolve("altered.zip"), BundleZip.write(altered)).toString(),
                    "--trust", vkey.toString(), "--tsa-ca", root);
            assertEquals(Main.NOT_VERIFIED, bad.code, name + ": " + bad.out);
            assertTrue(bad.out.contains("\n  " + name + ": ") || bad.out.contains("\n  " + name + ", "), name + ": " + bad.out);
        }
        // A byte of the ZIP itself, a file added, a file removed.
        byte[] flipped = zip.clone();
        flipped[zip.length / 3] ^= 0x01;
        Run raw = verifier("bundle", "check", Files.write(tmp.resolve("flipped.zip"), flipped).toString(), "--trust", vkey.toString());
        assertEquals(Main.NOT_VERIFIED, raw.code, raw.out);
        assertTrue(raw.out.contains("the bundle (ZIP), byte "), raw.out);
        var added = new LinkedHashMap<>(files);
        added.put("notes.txt", "nothing to see\n".getBytes(StandardCharsets.UTF_8));
        Run more = verifier("bundle", "check", Files.write(tmp.resolve("added.zip"), BundleZip.write(added)).toString(), "--trust", vkey.toString());
        assertEquals(Main.NOT_VERIFIED, more.code, more.out);
        assertTrue(more.out.contains("notes.txt: "), more.out);
        String proof = files.keySet().stream().filter(n -> n.startsWith("proofs/")).findFirst().orElseThrow();
        var removed = new LinkedHashMap<>(files);
        removed.remove(proof);
        Run fewer = verifier("bundle", "check", Files.write(tmp.resolve("removed.zip"), BundleZip.write(removed)).toString(), "--trust", vkey.toString());
        assertEquals(Main.NOT_VERIFIED, fewer.code, fewer.out);
        assertTrue(fewer.out.contains(proof + ": missing"), fewer.out);
    }

    /**
     * A row changed in the database after it was written (here its subject, by a superuser with the log's triggers
     * off) is neither proven nor bundled: its proof and any bundle holding it are refused, saying so, on record and
     * without a Retry-After (asking again will not help).
     */
    @Test
    void aRowChangedAfterItWasWrittenIsNeitherProvenNorBundled() throws Exception {
        String requestId = read();
        String auditorAuth = "Bearer " + auditor;
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> given().header("Authorization", auditorAuth)
                .queryParam("requestId", requestId).get("/audit/proof").statusCode() == 200);
        asSuperuserWithoutTriggers("UPDATE audit_entry SET subject = 'mallory' WHERE request_id = '" + requestId + "' AND kind = 'OUTCOME'");
        try {
            var proof = given().header("Authorization", auditorAuth).queryParam("requestId", requestId).get("/audit/proof");
            assertEquals(409, proof.statusCode(), proof.asString());
            assertTrue(proof.asString().contains("no longer hashes to the leaf hash stored with it"), proof.asString());
            assertEquals(null, proof.header("Retry-After"));

            var bundle = ask("{\"requestIds\":[\"" + requestId + "\"]}");
            assertEquals(409, bundle.statusCode(), bundle.asString());
            assertTrue(bundle.asString().contains("no longer hashes to the leaf hash stored with it"), bundle.asString());
            assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle/made'"
                    + " AND outcome = 'not-made' AND detail LIKE '%no longer hashes%'", bundle.header("X-Request-Id")));
        } finally {
            asSuperuserWithoutTriggers("UPDATE audit_entry SET subject = 'alice' WHERE request_id = '" + requestId + "' AND kind = 'OUTCOME'");
        }
        assertEquals(200, ask("{\"requestIds\":[\"" + requestId + "\"]}").statusCode(), "restored, it is bundled again");
    }

    /**
     * A bundle not made answers by why, as the proof of one request does: 404 when a search finds no request, 409 with
     * Retry-After while a record is not under a signed checkpoint (asked again, it is made), 400 when a search finds more
     * requests than a bundle holds (narrowed, it is made); each on record as not made, saying why.
     */
    @Test
    void aBundleNotMadeIsAnsweredByWhy() throws Exception {
        var nothing = ask("{\"search\":{\"uriPrefix\":\"file:///no-such-folder-anywhere/\"}}");
        assertEquals(404, nothing.statusCode(), nothing.asString());
        assertEquals("the search finds no request", nothing.jsonPath().getString("error"));
        assertEquals(null, nothing.header("Retry-After"));

        io.restassured.response.Response notYet = null;
        for (int i = 0; i < 3 && (notYet == null || notYet.statusCode() != 409); i++) {
            String requestId = RequestIds.next();
            log.append(AuditEvent.of(AuditEvent.Kind.ADMIN, requestId).method("test/unproven").decision("ALLOW").outcome("ok").build());
            notYet = ask("{\"requestIds\":[\"" + requestId + "\"]}");
        }
        assertEquals(409, notYet.statusCode(), notYet.asString());
        assertEquals("10", notYet.header("Retry-After"));
        assertTrue(notYet.jsonPath().getString("error").contains("is not under a signed checkpoint yet"), notYet.asString());

        String folder = "file:///bundle-too-many-" + System.nanoTime() + "/";
        for (int i = 0; i <= BundleSelection.MAX_REQUESTS; i++) {
            log.append(AuditEvent.of(AuditEvent.Kind.ADMIN, RequestIds.next()).method("test/many").uri(folder + i)
                    .decision("ALLOW").outcome("ok").build());
        }
        var tooMany = ask("{\"search\":{\"uriPrefix\":\"" + folder + "\"}}");
        assertEquals(400, tooMany.statusCode(), tooMany.asString());
        assertEquals("the search finds " + (BundleSelection.MAX_REQUESTS + 1) + " requests, more than " + BundleSelection.MAX_REQUESTS
                + ": narrow it", tooMany.jsonPath().getString("error"));
        for (var answer : List.of(nothing, notYet, tooMany)) {
            assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle/made'"
                    + " AND outcome = 'not-made' AND detail LIKE ?", answer.header("X-Request-Id"),
                    "%not made: " + answer.jsonPath().getString("error")), answer.asString());
        }
    }

    /** Runs a statement as a superuser with the log's triggers off (what an attacker with full access could do). */
    private static void asSuperuserWithoutTriggers(String sql) throws Exception {
        try (Connection su = java.sql.DriverManager.getConnection(dev.quaestor.support.TestDatabase.url(), "postgres", "")) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            assertEquals(1, su.createStatement().executeUpdate(sql), sql);
            su.commit();
        }
    }

    @Test
    void aSearchMakesABundleAndBadAsksAreRefusedOnRecord() throws Exception {
        String requestId = read();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).until(() -> ask("{\"requestIds\":[\"" + requestId
                + "\"]}").statusCode() == 200);
        var bySearch = ask("{\"search\":{\"subject\":\"alice\",\"uriPrefix\":\"file:///docs/handbook/\"}}");
        assertEquals(200, bySearch.statusCode(), bySearch.asString());
        String records = new String(BundleZip.open(bySearch.asByteArray()).files().get("records.jsonl"), StandardCharsets.UTF_8);
        assertTrue(records.contains(requestId), records);
        assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle/made' AND outcome = 'ok'"
                + " AND detail LIKE '%found requests %" + requestId + "%'", bySearch.header("X-Request-Id")),
                "the made record of a search's bundle names the requests it found");

        var unknown = ask("{\"requestIds\":[\"no-such-request\"]}");
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.asString().contains("no record has request id no-such-request"), unknown.asString());
        assertEquals(1, query("SELECT COUNT(*) FROM audit_entry WHERE request_id = ? AND method = 'audit/bundle/made' AND outcome = 'not-made'",
                unknown.header("X-Request-Id")));
        var both = ask("{\"requestIds\":[\"a\"],\"search\":{\"subject\":\"alice\"}}");
        assertEquals(400, both.statusCode());
        assertEquals(400, ask("{\"search\":{\"who\":\"alice\"}}").statusCode());
        assertEquals(400, ask("{\"requestIds\":[]}").statusCode());
        var nullId = ask("{\"requestIds\":[null]}");
        assertEquals(400, nullId.statusCode(), nullId.asString());

        given().header("Authorization", "Bearer " + TestIssuer.tokenFor("alice")).contentType(ContentType.JSON)
                .body("{\"requestIds\":[\"" + requestId + "\"]}").post("/audit/bundle").then().statusCode(403);
    }
}
