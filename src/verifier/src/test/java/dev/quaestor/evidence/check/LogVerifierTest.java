package dev.quaestor.evidence.check;

import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.write.ExportWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Tampering with a version-2 export, one way at a time: each is found, and the report names the
 * first broken record (or line) with its position. The untouched export verifies.
 */
public class LogVerifierTest {

    public static final TestLog.Key KEY = TestLog.Key.of("quaestor.audit", 1);
    public static final TestLog.Key OTHER = TestLog.Key.of("quaestor.audit", 2);
    public static final TrustedKeys TRUST = TrustedKeys.of(KEY.vkey());
    public static final String LOG = "replica-a";

    /** 100 records, a checkpoint every 25, nodes of 16 leaves and up. */
    static TestLog log100() {
        return new TestLog(KEY, LOG).appendTo(100, 25);
    }

    static Problem only(Report r) {
        assertFalse(r.ok(), "the tampering went unnoticed: " + r);
        return r.problems().get(0);
    }

    /** Record {@code seq}'s line, as a 1-based line number of the export. */
    static long lineOf(List<String> lines, long seq) {
        return TestLog.indexOfRecord(lines, seq) + 1;
    }

    @Test
    void anUntouchedExportVerifies() {
        var lines = log100().export();
        Report r = TestLog.verify(lines, TRUST, false);
        assertTrue(r.ok(), r.toString());
        var s = r.logs().get(0);
        assertEquals(LOG, s.log());
        assertEquals(100, s.records());
        assertEquals(4, s.checkpoints());
        assertEquals(100, s.signedThrough());
        assertEquals(0, s.unsignedTail());
        assertEquals(6 + 3 + 1, s.nodes(), "level 4: 6, level 5: 3, level 6: 1");
        assertEquals("2 and 3", s.formats(), "summaries of refused attempts (every 17th record) are in version 3");
        assertTrue(r.warnings().isEmpty(), r.warnings().toString());
    }

    @Test
    void aSummarysCountsAreCoveredByItsHash() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 34);
        assertTrue(lines.get(i).contains("\"v\":\"3\""), lines.get(i));
        lines.set(i, lines.get(i).replace("\"uris_more\":\"34\"", "\"uris_more\":\"0\""));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(34, p.seq());
        assertTrue(p.message().endsWith("was changed after it was written: its content no longer matches its hash"), p.message());

        lines = log100().export();
        lines.set(i, lines.get(i).replace("30 file:///reports/secret/34.txt", "3 file:///reports/secret/34.txt"));
        assertEquals(34, only(TestLog.verify(lines, TRUST, false)).seq());
    }

    @Test
    void aSummaryPassedOffAsVersion2IsFound() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 51);
        lines.set(i, lines.get(i).replace("\"v\":\"3\"", "\"v\":\"2\""));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(51, p.seq());
        assertTrue(p.message().contains("holds a field the format does not define (\"uris\")"), p.message());
    }

    @Test
    void anEditedFieldIsFoundAtItsRecord() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 37);
        lines.set(i, lines.get(i).replace("\"subject\":\"alice\"", "\"subject\":\"mallory\""));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(37, p.seq());
        assertEquals(i + 1, p.line());
        assertEquals("record 37 of log replica-a (line " + (i + 1) + ") was changed after it was written: its content no longer"
                + " matches its hash", p.message());
    }

    @Test
    void anEditedFieldWithItsHashRecomputedIsFoundByTheStoredNodeAndTheCheckpoint() {
        var log = new TestLog(KEY, LOG);
        var lines = log.appendTo(100, 25).export();
        int i = TestLog.indexOfRecord(lines, 37);
        Map<String, String> r = TestLog.record(LOG, 37);
        r.put("subject", "mallory");
        lines.set(i, recordLine(r));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(50, p.seq(), p.message());
        assertTrue(p.message().startsWith("the checkpoint at 50 records (line 3) does not match the records of log replica-a:"
                + " a record between 33 and 48 was changed, inserted or removed"), p.message());
    }

    /** Records a matched checkpoint vouches for are not put under suspicion: the stored node 17..32 narrows to 26..32. */
    @Test
    void theRangeOfAChangedRecordStartsAfterTheLastCheckpointItsRecordsMatched() {
        var log = new TestLog(KEY, LOG);
        var lines = log.appendTo(100, 25).export();
        int i = TestLog.indexOfRecord(lines, 30);
        Map<String, String> r = TestLog.record(LOG, 30);
        r.put("subject", "mallory");
        lines.set(i, recordLine(r));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertTrue(p.message().startsWith("the checkpoint at 50 records (line 3) does not match the records of log replica-a:"
                + " a record between 26 and 32 was changed, inserted or removed"), p.message());
    }

    @Test
    void aDeletedRecordIsFound() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 41);
        lines.remove(i);
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(41, p.seq());
        assertEquals(i + 1, p.line());
        assertEquals("records are missing from log replica-a: seq 42 (line " + (i + 1) + ") follows seq 40; record 41 is not in its place (removed, or moved elsewhere)",
                p.message());
    }

    @Test
    void twoSwappedRecordsAreFound() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 60);
        String a = lines.get(i);
        lines.set(i, lines.get(i + 1));
        lines.set(i + 1, a);
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(60, p.seq());
        assertEquals(i + 1, p.line());
        assertEquals("records are missing from log replica-a: seq 61 (line " + (i + 1) + ") follows seq 59; record 60 is not in"
                + " its place (removed, or moved elsewhere)", p.message(), "the next line holds it: gone is not known");
    }

    @Test
    void anInsertedRecordIsFound() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 70);
        Map<String, String> forged = TestLog.record(LOG, 70);
        forged.put("uri", "file:///reports/never-read.txt");
        lines.add(i + 1, recordLine(forged));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(70, p.seq());
        assertEquals(i + 2, p.line());
        assertTrue(p.message().startsWith("records of log replica-a are out of order or repeated: seq 70 (line " + (i + 2) + ")"),
                p.message());
    }

    @Test
    void anInsertedRecordWithTheRestRenumberedIsFoundByTheCheckpoint() {
        var log = new TestLog(KEY, LOG);
        log.appendTo(100, 25);
        var lines = new ArrayList<String>();
        lines.add(TestLog.keyLine(KEY));
        lines.addAll(log.checkpointLines);
        lines.addAll(log.nodeLines);
        // Records 1..69 as written, a forged 70, then the old 70..99 renumbered 71..100, hashes recomputed.
        for (long s = 1; s <= 100; s++) {
            Map<String, String> r = TestLog.record(LOG, s <= 70 ? s : s - 1);
            r.put("seq", Long.toString(s));
            if (s == 70) {
                r.put("uri", "file:///reports/never-read.txt");
            }
            lines.add(recordLine(r));
        }
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertTrue(p.message().startsWith("the checkpoint at 75 records (line 4) does not match the records of log replica-a:"
                + " a record between 51 and 75 was changed, inserted or removed"), p.message());
    }

    @Test
    void aCheckpointReSignedWithAKeyThatIsNotPinnedIsRefused() {
        // Someone with the database but not the key rewrites record 10 and signs new checkpoints with their own key,
        // under the same key name, and names that key in the export.
        var forged = new TestLog(OTHER, LOG);
        for (long s = 1; s <= 100; s++) {
            Map<String, String> r = TestLog.record(LOG, s);
            if (s == 10) {
                r.put("decision", "DENY");
            }
            forged.append(r);
            if (s % 25 == 0) {
                forged.checkpoint();
            }
        }
        var lines = forged.export();
        Report r = TestLog.verify(lines, TRUST, false);
        Problem p = only(r);
        assertEquals(2, p.line());
        assertEquals("the checkpoint on line 2 (log replica-a, 25 records) is signed by a key that is not trusted: quaestor.audit+"
                + OTHER.vkey().keyIdHex(), p.message());
        assertTrue(r.problems().stream().anyMatch(q -> q.message().equals("3 more checkpoint(s) of log replica-a were refused as well")),
                r.problems().toString());
        assertTrue(r.warnings().contains("line 1: the export names the key quaestor.audit+" + OTHER.vkey().keyIdHex()
                + ", which you did not trust (--trust); it was not used for anything"), r.warnings().toString());
    }

    @Test
    void aKeyInsertedIntoTheExportIsReportedAndNeverTrusted() {
        var lines = log100().export();
        lines.add(1, TestLog.keyLine(OTHER));
        Report r = TestLog.verify(lines, TRUST, false);
        assertTrue(r.ok(), r.toString()); // the checkpoints are still the trusted key's
        assertEquals(List.of("line 2: the export names the key quaestor.audit+" + OTHER.vkey().keyIdHex()
                + ", which you did not trust (--trust); it was not used for anything"), r.warnings());
        // Trusting nothing but a key named in the export verifies nothing.
        Report none = TestLog.verify(lines, TrustedKeys.of(OTHER.vkey()), false);
        assertTrue(only(none).message().contains("is signed by a key that is not trusted: quaestor.audit+" + KEY.vkey().keyIdHex()),
                none.toString());
    }

    @Test
    void anAlteredNodeLineIsFound() {
        var log = log100();
        var lines = log.export();
        int i = lines.indexOf(log.nodeLines.get(1)); // level 4, index 1: records 17 to 32
        String line = lines.get(i);
        int h = line.indexOf("\"hash\":\"") + 8;
        lines.set(i, line.substring(0, h) + (line.charAt(h) == '0' ? '1' : '0') + line.substring(h + 1));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(i + 1, p.line());
        assertEquals(17, p.seq());
        assertEquals("the stored node on line " + (i + 1) + " (records 17 to 32 of log replica-a) was changed: it does not match"
                + " those records, which match the signed checkpoint at 50 records (line 3)", p.message());
    }

    @Test
    void anAlteredCheckpointNoteIsRefused() {
        var lines = log100().export();
        lines.set(2, lines.get(2).replace("\\n50\\n", "\\n51\\n").replace("\"size\":50", "\"size\":51"));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(3, p.line());
        assertTrue(p.message().startsWith("the checkpoint on line 3 (log replica-a, 51 records) has an invalid signature"),
                p.message());
    }

    @Test
    void aCheckpointOfAnotherLogIsRefused() {
        var other = new TestLog(KEY, "replica-b").appendTo(25, 25);
        var lines = log100().export();
        lines.set(1, other.checkpointLines.get(0).replace("\"log\":\"replica-b\"", "\"log\":\"replica-a\""));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals("the checkpoint on line 2 (log replica-a, 25 records) belongs to another log: it is for"
                + " quaestor.audit/replica-b, not for quaestor.audit/replica-a", p.message());
    }

    @Test
    void recordsCutFromTheEndAreFound() {
        var lines = log100().export();
        lines = new ArrayList<>(lines.subList(0, lines.size() - 10)); // records 91 to 100 gone
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(91, p.seq());
        assertTrue(p.message().startsWith("records are missing at the end of log replica-a: the export ends at seq 90, but a"
                + " signed checkpoint (line 5) covers 100 records"), p.message());
    }

    @Test
    void recordsCutFromAnUnsignedTailAreFoundByTheirStoredNodes() {
        var log = new TestLog(KEY, LOG).appendTo(100, 50); // checkpoints at 50 and 100
        log.appendTo(140, 1000); // records 101..140 are not signed yet; node 113..128 is stored
        var lines = log.export();
        assertTrue(TestLog.verify(lines, TRUST, null, false, true).ok());
        assertTrue(TestLog.verify(lines, TRUST, null, false, true).warnings().get(0).contains("the last 40 record(s) (seq 101 to 140) are not"
                + " yet covered by a signed checkpoint"));
        lines = new ArrayList<>(lines.subList(0, lines.size() - 20)); // records 121 to 140 gone
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertTrue(p.message().startsWith("records are missing at the end of log replica-a: the export ends at seq 120, but its"
                + " stored node on line"), p.message());
    }

    @Test
    void anArchivedPrefixIsVouchedForByItsCheckpointAndNodes() {
        var log = new TestLog(KEY, LOG).appendTo(37, 1000);
        log.monthEnd(); // checkpoint at 37 and the low nodes ending at 37
        log.appendTo(100, 25);
        var lines = log.exportArchivedThrough(37);
        Report r = TestLog.verify(lines, TRUST, false);
        assertTrue(r.ok(), r.toString());
        assertEquals(37, r.logs().get(0).archivedThrough());
        assertEquals(63, r.logs().get(0).records());
        assertEquals(4, r.logs().get(0).checkpoints(), "37 (the marker), 50, 75, 100");

        // A marker where no checkpoint vouches for one (records 1..40 deleted, a marker made up).
        var forged = new ArrayList<>(lines);
        int m = indexOfStartingWith(forged, "{\"type\":\"archive\"");
        forged.set(m, TestLog.markerLine(LOG, 40, Hex.of(RecordFormat.leafHash(TestLog.record(LOG, 40)))));
        forged.removeAll(List.of(lines.get(TestLog.indexOfRecord(lines, 38)), lines.get(TestLog.indexOfRecord(lines, 39)),
                lines.get(TestLog.indexOfRecord(lines, 40))));
        Problem p = only(TestLog.verify(forged, TRUST, false));
        assertEquals(m + 1, p.line());
        assertTrue(p.message().startsWith("the archive marker on line " + (m + 1) + " says records 1 to 40 of log replica-a were"
                + " archived, but no signed checkpoint vouches for it"), p.message());

        // The first record after the marker deleted.
        var cut = new ArrayList<>(lines);
        cut.remove(TestLog.indexOfRecord(cut, 38));
        p = only(TestLog.verify(cut, TRUST, false));
        assertEquals(38, p.seq());
        assertTrue(p.message().startsWith("records are missing from log replica-a: seq 39"), p.message());

        // A node of the archived prefix altered: the marker is no longer vouched for.
        var node = new ArrayList<>(lines);
        int n = indexOfStartingWith(node, "{\"type\":\"node\",\"log\":\"replica-a\",\"level\":5,\"index\":0,");
        node.set(n, node.get(n).replaceFirst("\"hash\":\"(.)", "\"hash\":\"" + (node.get(n).contains("\"hash\":\"0") ? "1" : "0")));
        p = only(TestLog.verify(node, TRUST, false));
        assertTrue(p.message().startsWith("the archive marker on line "), p.message());
    }

    @Test
    void aPartialExportIsCheckedFromItsFirstRecordOn() {
        var log = new TestLog(KEY, LOG).appendTo(48, 1000);
        log.monthEnd();
        log.appendTo(100, 25);
        var all = log.export();
        // A time range: records 49..100, with every line before the records.
        var lines = new ArrayList<>(all.subList(0, TestLog.indexOfRecord(all, 1)));
        lines.addAll(all.subList(TestLog.indexOfRecord(all, 49), all.size()));
        Report r = TestLog.verify(lines, TRUST, true);
        assertTrue(r.ok(), r.toString());
        assertEquals(4, r.logs().get(0).checkpoints(), "48 (from the stored nodes), 50, 75, 100");
        assertTrue(r.warnings().get(0).contains("the export starts at seq 49"), r.warnings().toString());
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertTrue(p.message().startsWith("records are missing from log replica-a: its first record is seq 49"), p.message());

        // A record changed (hash recomputed) inside the range is still found.
        int i = TestLog.indexOfRecord(lines, 60);
        Map<String, String> rec = TestLog.record(LOG, 60);
        rec.put("bytes", "1");
        lines.set(i, recordLine(rec));
        p = only(TestLog.verify(lines, TRUST, true));
        assertTrue(p.message().startsWith("the checkpoint at 75 records"), p.message());
    }

    @Test
    void aPartialExportAfterAnArchiveMarkerStartsWhereItsRecordsDo() {
        var log = new TestLog(KEY, LOG).appendTo(37, 1000);
        log.monthEnd();
        log.appendTo(64, 1000);
        log.monthEnd();
        log.appendTo(100, 25);
        var archived = log.exportArchivedThrough(37);
        var lines = new ArrayList<>(archived.subList(0, TestLog.indexOfRecord(archived, 38)));
        lines.addAll(archived.subList(TestLog.indexOfRecord(archived, 65), archived.size()));
        Report r = TestLog.verify(lines, TRUST, true);
        assertTrue(r.ok(), r.toString());
        assertEquals(37, r.logs().get(0).archivedThrough());
        assertEquals(65, r.logs().get(0).firstSeq());
        assertEquals(4, r.logs().get(0).checkpoints(), "37 (the marker), 64 (from the stored nodes), 75, 100");
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertTrue(p.message().startsWith("records are missing from log replica-a: seq 65"), p.message());

        // Starting where no stored nodes are, the records are read but the checkpoints cannot be checked: nothing signed
        // vouches for the records, whatever the flags.
        var later = new ArrayList<>(archived.subList(0, TestLog.indexOfRecord(archived, 38)));
        later.addAll(archived.subList(TestLog.indexOfRecord(archived, 70), archived.size()));
        p = only(TestLog.verify(later, TRUST, null, true, true));
        assertEquals(Problem.Kind.UNSIGNED_LOG, p.kind());
        assertEquals(70, p.seq());
        assertTrue(p.message().startsWith("the checkpoints of log replica-a could not be checked: the export holds neither the"
                + " records before seq 70 nor their stored nodes"), p.message());
    }

    @Test
    void twoLogsAreCheckedEachOnItsOwn() {
        var a = new TestLog(KEY, "replica-a").appendTo(40, 20);
        var b = new TestLog(KEY, "replica-b").appendTo(30, 10);
        var lines = new ArrayList<String>();
        lines.add(TestLog.keyLine(KEY));
        lines.addAll(a.checkpointLines);
        lines.addAll(b.checkpointLines);
        lines.addAll(a.nodeLines);
        lines.addAll(b.nodeLines);
        lines.addAll(a.recordLines);
        lines.addAll(b.recordLines);
        Report r = TestLog.verify(lines, TRUST, false);
        assertTrue(r.ok(), r.toString());
        assertEquals(2, r.logs().size());
        int i = TestLog.indexOfRecordOf(lines, "replica-b", 7);
        lines.set(i, lines.get(i).replace("\"tenant\":\"acme\"", "\"tenant\":\"acme2\""));
        r = TestLog.verify(lines, TRUST, false);
        assertEquals(1, r.problems().size(), r.toString());
        assertEquals("replica-b", r.problems().get(0).log());
        assertEquals(7, r.problems().get(0).seq());
        assertFalse(r.logs().get(0).broken());
        assertTrue(r.logs().get(1).broken());
    }

    @Test
    void aFieldTheFormatDoesNotDefineIsRefused() {
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 5);
        lines.set(i, lines.get(i).replace("\"hash\":", "\"note\":\"looks official\",\"hash\":"));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(5, p.seq());
        assertTrue(p.message().contains("holds a field the format does not define (\"note\")"), p.message());
    }

    // ---- what no signature covers ----

    @Test
    void aMadeUpRecordWithItsHashAndNoCheckpointDoesNotVerify() {
        var lines = List.of(TestLog.keyLine(KEY), recordLine(TestLog.record("b", 1)));
        for (boolean partial : new boolean[] {false, true}) {
            for (boolean allowTail : new boolean[] {false, true}) {
                Problem p = only(TestLog.verify(lines, TRUST, null, partial, allowTail));
                assertEquals(Problem.Kind.UNSIGNED_LOG, p.kind());
                assertEquals(1, p.seq());
                assertEquals(2, p.line());
                assertEquals("no signed checkpoint covers the records of log b (seq 1 to 1): they are in order and match their"
                        + " hashes, but nothing signed vouches for them", p.message());
            }
        }
    }

    @Test
    void aRecordAppendedToAGenuineExportIsNotVerifiedUnlessTheTailIsAccepted() {
        var lines = log100().export(); // signed through 100
        assertTrue(TestLog.verify(lines, TRUST, false).ok());
        lines.add(recordLine(TestLog.record(LOG, 101)));
        Problem p = only(TestLog.verify(lines, TRUST, false));
        assertEquals(Problem.Kind.UNSIGNED_TAIL, p.kind());
        assertEquals(101, p.seq());
        assertEquals(lines.size(), p.line());
        assertTrue(p.message().startsWith("the last 1 record(s) of log replica-a (seq 101 to 101) are covered by no signed"
                + " checkpoint"), p.message());
        assertTrue(p.message().endsWith("or accept them with --allow-unsigned-tail"), p.message());

        Report accepted = TestLog.verify(lines, TRUST, null, false, true);
        assertTrue(accepted.ok(), accepted.toString());
        assertEquals(1, accepted.logs().get(0).unsignedTail());
        assertEquals(100, accepted.covered());
        assertTrue(accepted.warnings().get(0).startsWith("log replica-a: the last 1 record(s) (seq 101 to 101) are not yet"
                + " covered by a signed checkpoint"), accepted.warnings().toString());
    }

    @Test
    void aPartialExportWithoutTheStoredNodesItsCheckpointsNeedDoesNotVerify() {
        var log = log100(); // checkpoints at 25, 50, 75 and 100
        var lines = new ArrayList<>(log.export());
        lines.removeAll(log.nodeLines);
        lines.subList(TestLog.indexOfRecord(lines, 1), TestLog.indexOfRecord(lines, 61)).clear();
        for (boolean allowTail : new boolean[] {false, true}) {
            Report r = TestLog.verify(lines, TRUST, null, true, allowTail);
            Problem p = only(r);
            assertEquals(Problem.Kind.UNSIGNED_LOG, p.kind());
            assertEquals(61, p.seq());
            assertTrue(p.message().startsWith("the checkpoints of log replica-a could not be checked: the export holds neither the"
                    + " records before seq 61 nor their stored nodes"), p.message());
            assertEquals(0, r.covered());
        }
        // With the stored nodes of records 1 to 64, the records after them verify.
        var withNodes = new ArrayList<>(log.export());
        withNodes.subList(TestLog.indexOfRecord(withNodes, 1), TestLog.indexOfRecord(withNodes, 65)).clear();
        Report r = TestLog.verify(withNodes, TRUST, true);
        assertTrue(r.ok(), r.toString());
    }

    public static String recordLine(Map<String, String> r) {
        var sb = new StringBuilder();
        try {
            new ExportWriter(sb).record(r, Hex.of(RecordFormat.leafHash(r)));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        return sb.substring(0, sb.length() - 1);
    }

    static int indexOfStartingWith(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no line " + prefix);
    }
}
