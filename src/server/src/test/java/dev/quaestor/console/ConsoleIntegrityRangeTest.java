package dev.quaestor.console;

import dev.quaestor.audit.AuditLog;
import dev.quaestor.audit.config.AuditConfig;
import dev.quaestor.audit.record.AuditEvent;
import dev.quaestor.audit.record.AuditRecords;
import dev.quaestor.audit.record.Caller;
import dev.quaestor.audit.record.FieldHasher;
import dev.quaestor.audit.record.RecordText;
import dev.quaestor.audit.write.GroupCommitWriter;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordField;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.support.ConsoleSession;
import dev.quaestor.support.TestDatabase;
import dev.quaestor.support.TestIssuer;
import io.agroal.api.AgroalDataSource;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The integrity page when a record was changed and its stored hash recomputed to match (a superuser with the log's
 * triggers off): the record itself hashes right, so only the tree shows it, and the check can name only the records
 * among which one is no longer what was signed. The page shows those records as a range, says what is known of them and
 * links none of them as the broken one; the logs' table names each log; and the words place things by seq, not by the
 * export's lines the online check does not have. The log tampered with is one of the test's own (a writer of its
 * own), restored afterwards, so every log in the database verifies again.
 */
@QuarkusTest
class ConsoleIntegrityRangeTest {

    @Inject
    AgroalDataSource ds;

    @Inject
    AuditConfig config;

    @Inject
    AuditLog log;

    @Inject
    dev.quaestor.audit.read.AuditTally tally;

    private final String chain = "integrity-range-" + System.nanoTime();
    private final String auditor = TestIssuer.tokenFor("auditor");

    /**
     * The writer's start (seq 1), 20 reads (each a DECISION and its OUTCOME: read {@code i}'s outcome is seq 3 + 2i), its
     * stop: all under the checkpoint its stop signs.
     */
    private void writeLog() {
        var w = new GroupCommitWriter(ds, config, log.signingKey(), FieldHasher.none(), chain, new SimpleMeterRegistry(),
                Clock.systemUTC());
        w.start();
        var alice = new Caller("alice", "cli", "acme", List.of("pi"), "10.0.0.1", "ua", "s", null, null, null);
        for (int i = 0; i < 20; i++) {
            w.append(AuditEvent.of(AuditEvent.Kind.DECISION, chain + "-" + i).time(Instant.now()).caller(alice)
                    .method("resources/read").action("read").uri("file:///docs/range/" + i).decision("ALLOW")
                    .rules(List.of("r1")).policyRevision("rev").build());
            w.append(AuditEvent.of(AuditEvent.Kind.OUTCOME, chain + "-" + i).time(Instant.now()).caller(alice)
                    .method("resources/read").action("read").uri("file:///docs/range/" + i).policyRevision("rev").outcome("ok")
                    .bytes(12L).build());
        }
        w.stop();
    }

    private static Connection superuser() throws SQLException {
        return DriverManager.getConnection(TestDatabase.url(), "postgres", "");
    }

    /** Sets record {@code seq}'s subject and stores the leaf hash of what it then holds; returns the old subject and hash. */
    private String[] rewrite(long seq, String subject) throws SQLException {
        return rewrite(seq, subject, true);
    }

    /** Sets record {@code seq}'s subject, and if {@code rehash} its hash to match; returns the old subject and hash. */
    private String[] rewrite(long seq, String subject, boolean rehash) throws SQLException {
        try (Connection su = superuser()) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            String[] values = new String[AuditRecords.COLUMNS.size()];
            String[] old;
            try (var ps = su.prepareStatement("SELECT " + AuditRecords.COLUMN_LIST + " FROM audit_entry WHERE chain_id = ? AND seq = ?")) {
                ps.setString(1, chain);
                ps.setLong(2, seq);
                try (var rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    RecordText t = RecordText.read(rs, 1);
                    old = new String[] {t.value(RecordField.SUBJECT), t.hash()};
                    for (int i = 0; i < values.length; i++) {
                        values[i] = t.column(i);
                    }
                }
            }
            values[RecordField.SUBJECT.ordinal()] = subject;
            String hash = rehash ? Hex.of(TreeHash.leaf(new RecordText(values).canonicalBytes())) : old[1];
            set(su, seq, subject, hash);
            su.commit();
            return old;
        }
    }

    private void restore(long seq, String[] old) throws SQLException {
        try (Connection su = superuser()) {
            su.setAutoCommit(false);
            su.createStatement().execute("SET LOCAL session_replication_role = replica");
            set(su, seq, old[0], old[1]);
            su.commit();
        }
    }

    private void set(Connection su, long seq, String subject, String hash) throws SQLException {
        try (var ps = su.prepareStatement("UPDATE audit_entry SET subject = ?, entry_hash = ? WHERE chain_id = ? AND seq = ?")) {
            ps.setString(1, subject);
            ps.setString(2, hash);
            ps.setString(3, chain);
            ps.setLong(4, seq);
            assertEquals(1, ps.executeUpdate());
        }
    }

    private boolean verified() {
        return given().header("Authorization", "Bearer " + auditor).get("/audit/verify").then().statusCode(200).extract()
                .jsonPath().getBoolean("verified");
    }

    /** The table row of {@code table} whose cell of class {@code cell} holds exactly the test's log. */
    private String rowOf(String page, String table, String cell) {
        Matcher t = Pattern.compile("<table id=\"" + table + "\">.*?</table>", Pattern.DOTALL).matcher(page);
        assertTrue(t.find(), page);
        for (String row : t.group().split("<tr")) {
            if (row.contains("class=\"mono " + cell + "\">" + chain + "</td>")) {
                return row;
            }
        }
        throw new AssertionError("no row of " + table + " names " + chain + " in its " + cell + " cell: " + t.group());
    }

    @Test
    void aRecordChangedWithItsHashRecomputedIsShownAsTheRangeTheCheckpointCannotVouchFor() throws Exception {
        writeLog();
        assertTrue(verified());
        var console = ConsoleSession.signIn("auditor");
        String[] old = rewrite(5, "mallory");
        try {
            String page = console.get("/console/integrity").then().statusCode(200).extract().asString();
            assertTrue(page.contains("The audit log does not verify"), page);
            String problem = rowOf(page, "problems", "problem-log");
            // One of the records up to the checkpoint, not the checkpoint's own position, and none linked as the one.
            Matcher range = Pattern.compile("class=\"mono broken-range\">([0-9]+)–([0-9]+)</td>").matcher(problem);
            assertTrue(range.find(), problem);
            assertTrue(Long.parseLong(range.group(1)) <= 5 && Long.parseLong(range.group(2)) >= 5, problem);
            assertFalse(problem.contains("broken-seq") || problem.contains("/console/requests/"), problem);
            assertTrue(problem.contains("no longer matches what the checkpoint at") && problem.contains("Which one cannot be told"),
                    problem);
            // The logs' table: the log's name in its log column, broken; where the check stopped is not shown as a
            // range of seqs, which would read as the log's extent or as the problem's records.
            String logRow = rowOf(page, "logs", "log-name");
            assertTrue(logRow.contains("BROKEN") && logRow.contains("until the problem above"), logRow);
            assertFalse(Pattern.compile(">[0-9]+–[0-9]+<").matcher(logRow).find(), logRow);
            // The check's words name records by seq; the online check has no export and no lines.
            assertFalse(Pattern.compile("\\blines? [0-9]").matcher(problem).find(), problem);
        } finally {
            restore(5, old);
        }
        assertTrue(verified(), "restored, every log verifies");
    }

    /** The row of the who-read page's table {@code table} counting {@code key}. */
    private static String tallyRow(String page, String table, String key) {
        Matcher t = Pattern.compile("<table id=\"" + table + "\" class=\"tally\">.*?</table>", Pattern.DOTALL).matcher(page);
        assertTrue(t.find(), page);
        for (String row : t.group().split("<tr")) {
            if (row.startsWith("><td class=\"mono\">" + key + "<") || row.startsWith("><td class=\"mono\">" + key + " ")) {
                return row;
            }
        }
        throw new AssertionError("no row of " + table + " counts " + key + ": " + t.group());
    }

    /**
     * Who read what checks every record it counts as the search page checks the rows it shows: a read whose subject was
     * changed after it was written (its hash left as it was) is counted for the subject it now names, so the page warns
     * with a banner and marks each count that includes it (its subject, folder, URI and day), and no other; restored, the
     * page warns of nothing.
     */
    @Test
    void whoReadWarnsOfACountedRecordNotAsWritten() throws Exception {
        writeLog();
        var console = ConsoleSession.signIn("auditor");
        String intruder = "mallory-" + System.nanoTime();
        String url = "/console/who-read?uriPrefix=file:///docs/range/&from=-1d";
        String[] old = rewrite(5, intruder, false); // read 1's OUTCOME, alice's
        try {
            String page = console.get(url).then().statusCode(200).extract().asString();
            assertTrue(page.contains("id=\"who-read-not-as-written\"") && page.contains("1 no longer hash to the hash stored with them"),
                    page);
            assertTrue(tallyRow(page, "by-subject", intruder).contains("not as written"), page);
            assertFalse(tallyRow(page, "by-subject", "alice").contains("not as written"), page);
            assertTrue(tallyRow(page, "by-uri", "file:///docs/range/1").contains("not as written"), page);
            assertFalse(tallyRow(page, "by-uri", "file:///docs/range/2").contains("not as written"), page);
            assertTrue(tallyRow(page, "by-folder", "file:///docs/range/").contains("not as written"), page);
            Matcher day = Pattern.compile("<table id=\"by-day\" class=\"tally\">.*?</table>", Pattern.DOTALL).matcher(page);
            assertTrue(day.find() && day.group().contains("not as written"), page);
        } finally {
            restore(5, old);
        }
        String page = console.get(url).then().statusCode(200).extract().asString();
        assertTrue(page.contains("<td class=\"mono\">alice<"), page);
        assertFalse(page.contains("who-read-not-as-written") || page.contains("not as written"), page);
    }

    /**
     * A page view checks the newest records a question counts, up to a bound, never every record of a wide question:
     * past the bound it says so, and an older record changed is left to the integrity check.
     */
    @Test
    void whoReadChecksTheNewestCountedRecordsUpToItsBoundAndSaysWhenThereWereMore() throws Exception {
        writeLog();
        var q = new dev.quaestor.audit.read.AuditQuery(null, null, null, "file:///docs/range/", null, null, null, null,
                Instant.now().minusSeconds(3600), null, null, 1);
        String[] old = rewrite(5, "mallory-" + System.nanoTime(), false); // read 1's OUTCOME, among the oldest counted
        try {
            var all = NotAsWritten.of(tally, q, java.time.ZoneOffset.UTC, IntegrityNotice.NONE, 100_000);
            assertTrue(all.found() && !all.partial(), "every record checked: the changed one found");
            var newest = NotAsWritten.of(tally, q, java.time.ZoneOffset.UTC, IntegrityNotice.NONE, 4);
            assertTrue(newest.partial(), "more than 4 counted: said so");
            assertFalse(newest.found(), "the changed record is older than the newest 4 checked");
            assertEquals(4, newest.checkedAtMost());
        } finally {
            restore(5, old);
        }
        assertEquals(NotAsWritten.CHECKED, NotAsWritten.of(tally, q, java.time.ZoneOffset.UTC, IntegrityNotice.NONE)
                .checkedAtMost(), "a page view's bound");
    }

    /** The rows of the page's table {@code table} (after its head). */
    private static List<String> rows(String page, String table) {
        Matcher t = Pattern.compile("<table id=\"" + table + "\">.*?</table>", Pattern.DOTALL).matcher(page);
        assertTrue(t.find(), page);
        var rows = List.of(t.group().split("<tr"));
        return rows.subList(2, rows.size());
    }

    /**
     * Search and timeline rows warn of a record they show that is not what was written: a row whose fields no longer
     * hash to its stored hash is marked at once (each shown row's hash is recomputed); a row changed with its hash
     * recomputed hashes right, so the page marks it only once an integrity check has found its log broken (the pages
     * never check the whole log themselves), with a banner linking the Integrity page; a later check that verifies
     * clears both. A request's page marks its records the same way.
     */
    @Test
    void searchAndTimelineRowsWarnOfARecordNotAsWritten() throws Exception {
        writeLog();
        var console = ConsoleSession.signIn("auditor");
        String intruder = "mallory-" + System.nanoTime();
        String search = "/console/search?subject=" + intruder;
        String timeline = "/console/timeline/subject?subject=" + intruder;
        String request = null;

        // Changed, its hash left as it was: both pages mark the row, before any check.
        String[] old = rewrite(5, intruder, false);
        try {
            for (String url : List.of(search, timeline)) {
                String page = console.get(url).then().statusCode(200).extract().asString();
                List<String> rows = rows(page, url.equals(search) ? "results" : "timeline");
                assertEquals(1, rows.size(), page);
                assertTrue(rows.get(0).contains("changed after it was written"), url + ": " + rows.get(0));
                if (url.equals(search)) {
                    Matcher link = Pattern.compile("href=\"(/console/requests/[^\"]+)\"").matcher(rows.get(0));
                    assertTrue(link.find(), rows.get(0));
                    request = link.group(1);
                }
            }
            // The request's own page marks the record under its heading.
            String page = console.get(request).then().statusCode(200).extract().asString();
            assertTrue(page.contains("integrity-mark altered") && page.contains("changed after it was written</span></h2>"), page);
        } finally {
            restore(5, old);
        }

        // Changed with its hash recomputed: the row hashes right; no mark until a check finds the log broken.
        old = rewrite(5, intruder);
        try {
            String page = console.get(search).then().statusCode(200).extract().asString();
            assertFalse(rows(page, "results").get(0).contains("integrity-mark"), page);
            assertTrue(console.get("/console/integrity").then().statusCode(200).extract().asString().contains("does not verify"));
            for (String url : List.of(search, timeline)) {
                page = console.get(url).then().statusCode(200).extract().asString();
                assertTrue(page.contains("id=\"integrity-notice\"") && page.contains("href=\"/console/integrity\"")
                        && page.contains("log\n<span class=\"mono\">" + chain + "</span> from seq"), url + ": " + page);
                String row = rows(page, url.equals(search) ? "results" : "timeline").get(0);
                assertTrue(row.contains("not verified") && row.contains("found log " + chain + " broken from seq"), url + ": " + row);
            }
            String whoRead = console.get("/console/who-read?subject=" + intruder).then().statusCode(200).extract().asString();
            assertTrue(whoRead.contains("id=\"integrity-notice\"") && whoRead.contains("id=\"who-read-not-as-written\"")
                    && whoRead.contains("1 are in a log the last integrity check found broken")
                    && tallyRow(whoRead, "by-uri", "file:///docs/range/1").contains("not as written"), whoRead);
            page = console.get(request).then().statusCode(200).extract().asString();
            assertTrue(page.contains("id=\"integrity-notice\"") && page.contains("integrity-mark unverified")
                    && page.contains("found log " + chain + " broken from seq"), page);
        } finally {
            restore(5, old);
        }
        assertTrue(verified(), "restored, every log verifies");
        for (String url : List.of("/console/search?subject=alice&uriPrefix=file:///docs/range/",
                "/console/timeline/resource?uri=file:///docs/range/")) {
            String page = console.get(url).then().statusCode(200).extract().asString();
            assertTrue(page.contains(chain + "-19"), url + ": " + page);
            assertFalse(page.contains("integrity-notice") || page.contains("integrity-mark"), url + ": " + page);
        }
        String page = console.get(request).then().statusCode(200).extract().asString();
        assertFalse(page.contains("integrity-notice") || page.contains("integrity-mark"), page);
    }
}
