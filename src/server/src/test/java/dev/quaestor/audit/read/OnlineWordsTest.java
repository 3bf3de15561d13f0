package dev.quaestor.audit.read;

import dev.quaestor.evidence.check.Problem;
import dev.quaestor.evidence.check.Report;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The verifier's words of an export's lines, as the online check says them of the database. */
class OnlineWordsTest {

    @Test
    void linesOfAnExportAreLeftOutWhereTheWordsNameTheRecordCheckpointOrNodeAlready() {
        assertEquals("record 37 of log a was changed after it was written: its content no longer matches its hash",
                OnlineWords.words("record 37 of log a (line 1,412) was changed after it was written: its content no longer matches its hash"));
        assertEquals("the checkpoint at 50 records does not match the records of log a: a record between 26 and 50 was changed,"
                + " inserted or removed (found at record 50)", OnlineWords.words("the checkpoint at 50 records (line 3) does not match"
                + " the records of log a: a record between 26 and 50 was changed, inserted or removed (found at record 50, line 412)"));
        assertEquals("records are missing from log a: seq 42 follows seq 40; record 41 is not in its place (removed, or moved elsewhere)",
                OnlineWords.words("records are missing from log a: seq 42 (line 44) follows seq 40; record 41 is not in its place"
                        + " (removed, or moved elsewhere)"));
        assertEquals("the stored node does not match records 17 to 32 of log a: the node or one of those records was changed",
                OnlineWords.words("the stored node on line 7 does not match records 17 to 32 of log a: the node or one of those"
                        + " records was changed"));
        assertEquals("two signed checkpoints of log a for 50 records have different roots",
                OnlineWords.words("two signed checkpoints of log a for 50 records (lines 3 and 4) have different roots"));
        assertEquals("the checkpoint (log a, 50 records) is signed by a key that is not trusted",
                OnlineWords.words("the checkpoint on line 3 (log a, 50 records) is signed by a key that is not trusted"));
        assertEquals("record 7 of log a is dated long before the first time-stamp that covers it (tsa saw the checkpoint at 50"
                + " records, at 2026-12-01T00:00:00Z)", OnlineWords.words("record 7 of log a is dated long before the first"
                + " time-stamp that covers it (tsa saw the checkpoint at 50 records, line 3, at 2026-12-01T00:00:00Z)"));
        assertEquals("the database (audit_key) names the key k, which you did not trust (--trust); it was not used for anything",
                OnlineWords.words("line 2: the export names the key k, which you did not trust (--trust); it was not used for anything"));
    }

    @Test
    void aReportKeepsItsKindsPlacesAndRecordsAndChangesOnlyItsWords() {
        Problem p = Problem.of(Problem.Kind.ROOT_MISMATCH, "a", 50, 412, "the checkpoint at 50 records (line 3) does not match",
                "x", "y").within(26, 50);
        Report r = OnlineWords.of(new Report(List.of(), List.of(p), List.of("line 2: the export names the key k")));
        Problem q = r.problems().get(0);
        assertEquals("the checkpoint at 50 records does not match", q.message());
        assertEquals(List.of(p.kind(), p.log(), p.seq(), p.evidence(), p.records()), List.of(q.kind(), q.log(), q.seq(), q.evidence(),
                q.records()));
        assertEquals(List.of("the database (audit_key) names the key k"), r.warnings());
    }
}
