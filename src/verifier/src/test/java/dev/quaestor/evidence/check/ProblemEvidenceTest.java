package dev.quaestor.evidence.check;

import static dev.quaestor.evidence.check.LogVerifierTest.KEY;
import static dev.quaestor.evidence.check.LogVerifierTest.LOG;
import static dev.quaestor.evidence.check.LogVerifierTest.OTHER;
import static dev.quaestor.evidence.check.LogVerifierTest.TRUST;
import static dev.quaestor.evidence.check.LogVerifierTest.log100;
import static dev.quaestor.evidence.check.LogVerifierTest.recordLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.quaestor.evidence.Anchor;
import dev.quaestor.evidence.FlatJson;
import dev.quaestor.evidence.Frontier;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.check.Problem.Involved;
import dev.quaestor.evidence.check.Problem.Kind;
import dev.quaestor.evidence.v1.V1Record;
import dev.quaestor.evidence.write.FlatJsonWriter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every kind of problem carries its evidence: the value expected, the value found (each checked here against the
 * export itself, recomputed from its lines), and the lines involved.
 */
class ProblemEvidenceTest {

    private final Set<Kind> shown = EnumSet.noneOf(Kind.class);

    /** The problem of {@code kind} in the report, its evidence checked; returns it. */
    private Problem shows(Report r, Kind kind, String expected, String found, Involved... involved) {
        Problem p = r.problems().stream().filter(q -> q.kind() == kind).findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " in " + r.problems()));
        assertEquals(expected, p.evidence().expected(), p.message());
        assertEquals(found, p.evidence().found(), p.message());
        assertEquals(List.of(involved), p.evidence().involved(), p.message());
        shown.add(kind);
        return p;
    }

    private static Map<String, String> fields(String line) {
        return FlatJson.read(line, 1);
    }

    private static String leaf(Map<String, String> record) {
        return Hex.of(RecordFormat.leafHash(record));
    }

    /** The root of the first {@code size} records of the test log, with {@code changed} in place of its seq. */
    private static String root(long size, Map<String, String> changed) {
        var tree = new Frontier();
        for (long s = 1; s <= size; s++) {
            tree.append(RecordFormat.leafHash(s == Long.parseLong(changed.get("seq")) ? changed : TestLog.record(LOG, s)), null);
        }
        return Base64.getEncoder().encodeToString(tree.root());
    }

    /** The root the checkpoint line holds (the third line of its note). */
    private static String signedRoot(String checkpointLine) {
        return fields(checkpointLine).get("note").split("\n")[2];
    }

    @Test
    void everyKindOfProblemCarriesItsEvidence() {
        // A record's content changed: the stored hash against the content's.
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 37);
        lines.set(i, lines.get(i).replace("\"subject\":\"alice\"", "\"subject\":\"mallory\""));
        Map<String, String> edited = fields(lines.get(i));
        String stored = edited.remove("hash");
        edited.remove("type");
        shows(TestLog.verify(lines, TRUST, false), Kind.RECORD_CHANGED, stored, leaf(edited), Involved.record(37, i + 1));

        // A field the format does not define.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 5);
        lines.set(i, lines.get(i).replace("\"hash\":", "\"note\":\"looks official\",\"hash\":"));
        shows(TestLog.verify(lines, TRUST, false), Kind.UNKNOWN_FIELD, "the fields of format version 2", "\"note\"",
                Involved.record(5, i + 1));

        // A format no verifier knows.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 6);
        lines.set(i, lines.get(i).replace("\"v\":\"2\"", "\"v\":\"9\""));
        shows(TestLog.verify(lines, TRUST, false), Kind.RECORD_DAMAGED, "format version 1, 2 or 3", "v=9", Involved.record(6, i + 1));

        // A record repeated: the seq that should come, the one that came.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 70);
        lines.add(i + 1, lines.get(i));
        shows(TestLog.verify(lines, TRUST, false), Kind.OUT_OF_ORDER, "seq 71", "seq 70", Involved.record(70, i + 2));

        // A record deleted.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 41);
        lines.remove(i);
        shows(TestLog.verify(lines, TRUST, false), Kind.MISSING, "seq 41", "seq 42", Involved.record(42, i + 1));

        // A record changed with its hash recomputed: the signed root against the records' root.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 37);
        Map<String, String> forged = TestLog.record(LOG, 37);
        forged.put("subject", "mallory");
        lines.set(i, recordLine(forged));
        lines.removeIf(l -> l.startsWith("{\"type\":\"node\"")); // no stored node to catch it first
        int at50 = TestLog.indexOfRecord(lines, 50);
        shows(TestLog.verify(lines, TRUST, false), Kind.ROOT_MISMATCH, signedRoot(lines.get(2)), root(50, forged),
                Involved.checkpoint(50, 3), Involved.record(50, at50 + 1));

        // A stored node changed: the hash its records give against the stored one.
        var log = log100();
        lines = log.export();
        i = lines.indexOf(log.nodeLines.get(1)); // level 4, index 1: records 17 to 32
        String node = fields(lines.get(i)).get("hash");
        String altered = (node.charAt(0) == '0' ? "1" : "0") + node.substring(1);
        lines.set(i, lines.get(i).replace(node, altered));
        shows(TestLog.verify(lines, TRUST, false), Kind.NODE_MISMATCH, node, altered, Involved.node(17, 32, i + 1),
                Involved.checkpoint(50, 3));

        // A stored node that holds no hash.
        lines = log100().export();
        i = lines.indexOf(log.nodeLines.get(0));
        lines.set(i, lines.get(i).replaceFirst("\"hash\":\"[0-9a-f]+\"", "\"hash\":\"xyz\""));
        shows(TestLog.verify(lines, TRUST, false), Kind.NODE_DAMAGED, "a SHA-256 in lowercase hex, at an index below 2^53",
                "hash xyz at level 4, index 0", new Involved("stored node", i + 1));

        // Two checkpoints of 25 records with different roots, both signed by the trusted key.
        var other = new TestLog(KEY, LOG);
        for (long s = 1; s <= 25; s++) {
            Map<String, String> r = TestLog.record(LOG, s);
            if (s == 10) {
                r.put("decision", "DENY");
            }
            other.append(r);
        }
        other.checkpoint();
        lines = log100().export();
        lines.add(2, other.checkpointLines.get(0));
        shows(TestLog.verify(lines, TRUST, false), Kind.SPLIT_VIEW, signedRoot(lines.get(1)), signedRoot(lines.get(2)),
                Involved.checkpoint(25, 2), Involved.checkpoint(25, 3));

        // An archive marker no checkpoint vouches for.
        var archived = new TestLog(KEY, LOG).appendTo(37, 1000);
        archived.monthEnd();
        archived.appendTo(100, 25);
        lines = archived.exportArchivedThrough(37);
        int m = LogVerifierTest.indexOfStartingWith(lines, "{\"type\":\"archive\"");
        lines.set(m, TestLog.markerLine(LOG, 40, leaf(TestLog.record(LOG, 40))));
        for (long s = 38; s <= 40; s++) {
            lines.remove(TestLog.indexOfRecord(lines, s));
        }
        shows(TestLog.verify(lines, TRUST, false), Kind.ARCHIVE_UNVOUCHED, "a signed checkpoint at 40 records", "none",
                new Involved("archive marker", m + 1));

        // A checkpoint after the records.
        lines = log100().export();
        lines.add(lines.remove(1));
        int first = TestLog.indexOfRecord(lines, 1) + 1;
        shows(TestLog.verify(lines, TRUST, false), Kind.MISPLACED_LINE, "before line " + first + " (the log's first record)",
                "line " + lines.size(), new Involved("checkpoint", lines.size()), Involved.record(1, first));

        // Checkpoints signed by a key not trusted: the keys trusted against the signer; the others counted, with their lines.
        var resigned = new TestLog(OTHER, LOG).appendTo(100, 25);
        lines = resigned.export();
        Report refused = TestLog.verify(lines, TRUST, false);
        shows(refused, Kind.CHECKPOINT_REFUSED, "a signature by quaestor.audit+" + KEY.vkey().keyIdHex(), "quaestor.audit+"
                + OTHER.vkey().keyIdHex(), Involved.checkpoint(25, 2));
        Problem more = refused.problems().stream().filter(p -> p.message().startsWith("3 more checkpoint(s)")).findFirst().orElseThrow();
        assertEquals(List.of(new Involved("checkpoint", 3), new Involved("checkpoint", 4), new Involved("checkpoint", 5)),
                more.evidence().involved());
        assertEquals("3 more refused", more.evidence().found());

        // A time-stamp line that holds no token: the checkpoint counts, its time-stamp is the problem.
        lines = log100().export();
        Map<String, String> cp = fields(lines.get(2));
        cp.put("note", Anchor.attach(cp.get("note"), "AAAAAAAA"));
        lines.set(2, FlatJsonWriter.write(cp));
        Report stamped = TestLog.verify(lines, TRUST, false);
        shows(stamped, Kind.TIMESTAMP_REFUSED, "a time-stamp line holding a token", "its time-stamp line does not hold a token",
                Involved.checkpoint(50, 3));
        assertEquals(4, stamped.logs().get(0).checkpoints(), "the checkpoint still counts for its records");

        // A record with its hash and no checkpoint; a record after the last checkpoint.
        lines = List.of(TestLog.keyLine(KEY), recordLine(TestLog.record(LOG, 1)));
        shows(TestLog.verify(lines, TRUST, false), Kind.UNSIGNED_LOG, "a checkpoint signed by a trusted key that matches the"
                + " records", "none", Involved.record(1, 2));
        lines = log100().export();
        lines.add(recordLine(TestLog.record(LOG, 101)));
        lines.add(recordLine(TestLog.record(LOG, 102)));
        shows(TestLog.verify(lines, TRUST, false), Kind.UNSIGNED_TAIL, "records signed up to seq 102", "signed up to seq 100",
                Involved.record(101, lines.size() - 1), Involved.record(102, lines.size()));

        // No key trusted.
        shows(TestLog.verify(log100().export(), TrustedKeys.of(), false), Kind.NO_TRUSTED_KEY, "a key given with --trust", "none");

        // An export with no log: nothing to verify.
        shows(TestLog.verify(List.of(TestLog.keyLine(KEY)), TRUST, false), Kind.NO_LOG, "at least one log", "none");

        // A checkpoint signed before the records it covers are dated (more than a minute).
        var early = new TestLog(KEY, LOG).appendTo(100, Long.MAX_VALUE);
        early.checkpointAt(TestLog.T0);
        lines = early.export();
        String dated = TestLog.record(LOG, 100).get("time");
        shows(TestLog.verify(lines, TRUST, false), Kind.DATED_AFTER_CHECKPOINT, "a time no later than " + TestLog.T0
                + " (with 1 min for the clock)", dated, Involved.record(100, lines.size()), Involved.checkpoint(100, 2));
        // --max-anchor-gap, and no time-stamp at all.
        shows(TestLog.verify(log100().export(), TRUST, null, false, false, java.time.Duration.ofHours(1)), Kind.ANCHOR_GAP,
                "at most 1 h", "no time-stamp", Involved.record(1, TestLog.indexOfRecord(log100().export(), 1) + 1));

        // A version-1 record whose link is not the stored hash of the record before it.
        var recs = V1LogTest.chain(6);
        recs.get(2).put("decision", "DENY");
        recs.get(2).remove("hash");
        recs.get(2).put("hash", V1Record.hash(recs.get(2)));
        var v1 = V1LogTest.export(List.of(V1LogTest.checkpointV1(recs.get(5), KEY)), List.of(), recs);
        shows(V1LogTest.verify(v1, V1LogTest.BY_VKEY), Kind.LINK_BROKEN, recs.get(2).get("hash"), recs.get(3).get("prev"),
                Involved.record(4, 6));

        assertEquals(EnumSet.allOf(Kind.class), shown, "every kind of problem is shown here with its evidence");
    }

    @Test
    void aProblemAfterAnUnsettledNodeCarriesBoth() {
        // A node changed, then a record deleted before any checkpoint settles the node: the node is the first sign.
        var log = log100();
        var lines = new ArrayList<>(log.export());
        int n = lines.indexOf(log.nodeLines.get(1)); // records 17 to 32
        String node = fields(lines.get(n)).get("hash");
        String altered = (node.charAt(0) == '0' ? "1" : "0") + node.substring(1);
        lines.set(n, lines.get(n).replace(node, altered));
        int i = TestLog.indexOfRecord(lines, 41);
        lines.remove(i);
        Report r = TestLog.verify(lines, TRUST, false);
        assertFalse(r.ok());
        Problem p = r.problems().get(0);
        assertEquals(Kind.NODE_MISMATCH, p.kind());
        assertTrue(p.message().endsWith("; then: records are missing from log replica-a: seq 42 (line " + (i + 1)
                + ") follows seq 40; record 41 is not in its place (removed, or moved elsewhere)"), p.message());
        assertEquals(node, p.evidence().expected());
        assertEquals(altered, p.evidence().found());
        assertEquals(List.of(Involved.node(17, 32, n + 1), Involved.record(42, i + 1)), p.evidence().involved());
    }

    @Test
    void aRootThatDoesNotMatchNamesTheStoredNodeThatDisagreedFirst() {
        // Record 37 changed with its hash recomputed: the node of records 33 to 48 disagrees, the checkpoint at 50 settles it.
        var log = log100();
        var lines = log.export();
        int i = TestLog.indexOfRecord(lines, 37);
        Map<String, String> forged = TestLog.record(LOG, 37);
        forged.put("subject", "mallory");
        lines.set(i, recordLine(forged));
        int node = lines.indexOf(log.nodeLines.get(3)); // level 4, index 2: records 33 to 48
        assertTrue(lines.get(node).contains("\"level\":4,\"index\":2,"), lines.get(node));
        Problem p = LogVerifierTest.only(TestLog.verify(lines, TRUST, false));
        assertEquals(Kind.ROOT_MISMATCH, p.kind());
        assertEquals(signedRoot(lines.get(2)), p.evidence().expected());
        assertEquals(root(50, forged), p.evidence().found());
        assertEquals(List.of(Involved.checkpoint(50, 3), Involved.record(50, TestLog.indexOfRecord(lines, 50) + 1),
                Involved.node(33, 48, node + 1)), p.evidence().involved());
    }

    @Test
    void aProblemThatCannotTellWhichRecordIsBrokenNamesTheRecordsItConcerns() {
        // Record 37 changed with its hash recomputed, no stored node: the checkpoint at 50 says one of 26 to 50 (after the one at 25) is not what it signed.
        var lines = log100().export();
        int i = TestLog.indexOfRecord(lines, 37);
        Map<String, String> forged = TestLog.record(LOG, 37);
        forged.put("subject", "mallory");
        lines.set(i, recordLine(forged));
        var bare = new ArrayList<>(lines);
        bare.removeIf(l -> l.startsWith("{\"type\":\"node\""));
        Problem p = LogVerifierTest.only(TestLog.verify(bare, TRUST, false));
        assertEquals(Kind.ROOT_MISMATCH, p.kind());
        assertEquals(50, p.seq());
        assertEquals(new Problem.Span(26, 50), p.records()); // the checkpoint at 25 matched
        // With the stored nodes, the node that disagreed first narrows it to its records.
        assertEquals(new Problem.Span(33, 48), LogVerifierTest.only(TestLog.verify(lines, TRUST, false)).records());

        // A stored node changed: the node over records 17 to 32.
        var log = log100();
        lines = log.export();
        int n = lines.indexOf(log.nodeLines.get(1));
        String node = fields(lines.get(n)).get("hash");
        lines.set(n, lines.get(n).replace(node, (node.charAt(0) == '0' ? "1" : "0") + node.substring(1)));
        assertEquals(new Problem.Span(17, 32), LogVerifierTest.only(TestLog.verify(lines, TRUST, false)).records());

        // A record changed without its hash: that record, no span.
        lines = log100().export();
        i = TestLog.indexOfRecord(lines, 37);
        lines.set(i, lines.get(i).replace("\"subject\":\"alice\"", "\"subject\":\"mallory\""));
        p = LogVerifierTest.only(TestLog.verify(lines, TRUST, false));
        assertEquals(Kind.RECORD_CHANGED, p.kind());
        assertEquals(37, p.seq());
        assertEquals(null, p.records());
    }
}
