package dev.quaestor.evidence.check;

import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.TreeHash;
import dev.quaestor.evidence.v1.V1Chain;
import dev.quaestor.evidence.v1.V1Checkpoint;
import dev.quaestor.evidence.v1.V1Record;
import dev.quaestor.evidence.write.ExportWriter;
import dev.quaestor.evidence.write.FlatJsonWriter;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Logs written in format version 1 stay verifiable: an export as the version-1 server wrote it (its key
 * lines, {@code chain}, seq as text, {@code null} for absent fields, CRLF line ends), its chained hashes and
 * signed heads; and a log that continues in version 2 is one tree.
 */
class V1LogTest {

    static final TestLog.Key KEY = LogVerifierTest.KEY;
    static final String CHAIN = "c1";

    /** Version-1 records 1..n of chain c1, each linked to the one before. */
    static List<Map<String, String>> chain(int n) {
        var out = new ArrayList<Map<String, String>>();
        String prev = V1Chain.GENESIS;
        for (int i = 1; i <= n; i++) {
            var r = new LinkedHashMap<String, String>();
            r.put("v", "v1");
            r.put("chain", CHAIN);
            r.put("seq", Integer.toString(i));
            r.put("prev", prev);
            r.put("time", "2026-01-01T00:00:" + String.format("%02d", i % 60) + ".000123Z");
            r.put("request", "r" + i);
            r.put("kind", "DECISION");
            r.put("subject", i % 3 == 0 ? "jos\u00e9 \"q\" \\ \ud83d\ude00" : "alice");
            r.put("roles", "pi");
            r.put("ip", "10.0.0.1");
            r.put("ua", "ua\nwith newline");
            r.put("method", "resources/read");
            r.put("action", "read");
            r.put("uri", "file:///a/" + i);
            r.put("decision", "ALLOW");
            r.put("rules", "rule");
            r.put("revision", "rev");
            if (i % 2 == 0) {
                r.put("error", "-32003");
            }
            String hash = V1Record.hash(r);
            r.put("hash", hash);
            out.add(r);
            prev = hash;
        }
        return out;
    }

    static String checkpointV1(Map<String, String> record, TestLog.Key key) {
        long seq = Long.parseLong(record.get("seq"));
        String time = "2026-01-01T01:00:00Z";
        String sig = key.signV1(V1Checkpoint.payload(CHAIN, seq, record.get("hash"), time));
        return json(List.of("type", "checkpoint", "chain", CHAIN, "seq", Long.toString(seq), "hash", record.get("hash"), "time", time,
                "keyId", key.v1KeyId(), "signature", sig));
    }

    /** A line as the version-1 server wrote it: every name, null for an absent value. */
    static String json(List<String> namesAndValues) {
        var sb = new StringBuilder("{");
        for (int i = 0; i < namesAndValues.size(); i += 2) {
            if (i > 0) {
                sb.append(',');
            }
            FlatJsonWriter.string(namesAndValues.get(i), sb);
            sb.append(':');
            if (namesAndValues.get(i + 1) == null) {
                sb.append("null");
            } else {
                FlatJsonWriter.string(namesAndValues.get(i + 1), sb);
            }
        }
        return sb.append('}').toString();
    }

    static String recordLine(Map<String, String> r) {
        var nv = new ArrayList<String>(List.of("type", "record"));
        for (String f : V1Record.FIELDS) {
            nv.add(f);
            nv.add(r.get(f));
        }
        nv.add("hash");
        nv.add(r.get("hash"));
        return json(nv);
    }

    static List<String> export(List<String> checkpoints, List<String> markers, List<Map<String, String>> records) {
        var lines = new ArrayList<String>();
        lines.add(json(List.of("type", "key", "keyId", KEY.v1KeyId(), "publicKey", KEY.v1PublicKey())));
        lines.addAll(checkpoints);
        lines.addAll(markers);
        records.forEach(r -> lines.add(recordLine(r)));
        return lines;
    }

    static Report verify(List<String> lines, TrustedKeys trusted) {
        return TestLog.verify(lines.stream().map(l -> l + "\r").toList(), trusted, false);
    }

    static final TrustedKeys BY_VKEY = TrustedKeys.of(KEY.vkey());
    static final TrustedKeys BY_V1_KEY = TrustedKeys.parse(List.of(KEY.v1PublicKey()));

    @Test
    void aVersion1ExportVerifiesWithEitherFormOfTheKey() {
        var recs = chain(10);
        var lines = export(List.of(checkpointV1(recs.get(4), KEY), checkpointV1(recs.get(9), KEY)), List.of(), recs);
        for (TrustedKeys trusted : List.of(BY_VKEY, BY_V1_KEY)) {
            Report r = verify(lines, trusted);
            assertTrue(r.ok(), r.toString());
            assertEquals("1", r.logs().get(0).formats());
            assertEquals(2, r.logs().get(0).checkpoints());
            assertEquals(10, r.logs().get(0).signedThrough());
        }
    }

    @Test
    void anAlteredVersion1RecordIsFound() {
        var recs = chain(10);
        recs.get(2).put("ua", "ua\nwith newline!"); // hash kept
        var lines = export(List.of(checkpointV1(recs.get(9), KEY)), List.of(), recs);
        Problem p = LogVerifierTest.only(verify(lines, BY_VKEY));
        assertEquals(3, p.seq());
        assertEquals(5, p.line());
        assertEquals("record 3 of log c1 (line 5) was changed after it was written: its content no longer matches its hash",
                p.message());
    }

    @Test
    void aRewrittenVersion1HistoryIsFoundAtTheSignedHead() {
        var recs = chain(6);
        String cp = checkpointV1(recs.get(5), KEY);
        // Someone rebuilds the whole chain with one record changed: every hash and link is consistent again...
        String prev = V1Chain.GENESIS;
        for (var r : recs) {
            if (r.get("seq").equals("3")) {
                r.put("subject", "mallory");
            }
            r.put("prev", prev);
            r.remove("hash");
            r.put("hash", V1Record.hash(r));
            prev = r.get("hash");
        }
        // ...but cannot sign the head again without the key.
        Problem p = LogVerifierTest.only(verify(export(List.of(cp), List.of(), recs), BY_VKEY));
        assertEquals(6, p.seq());
        assertTrue(p.message().startsWith("record 6 of log c1 (line 8) is not the record the signed version-1 checkpoint on line 2"
                + " names"), p.message());
    }

    @Test
    void aRecordChangedWithItsHashRecomputedBreaksTheLinkAfterIt() {
        var recs = chain(6);
        recs.get(2).put("decision", "DENY");
        recs.get(2).remove("hash");
        recs.get(2).put("hash", V1Record.hash(recs.get(2)));
        Problem p = LogVerifierTest.only(verify(export(List.of(checkpointV1(recs.get(5), KEY)), List.of(), recs), BY_VKEY));
        assertEquals(4, p.seq());
        assertTrue(p.message().startsWith("record 4 of log c1 (line 6) does not link to the record before it"), p.message());
    }

    @Test
    void aDeletedVersion1RecordAndAnUntrustedKeyAreFound() {
        var recs = chain(6);
        var lines = export(List.of(checkpointV1(recs.get(5), KEY)), List.of(), recs);
        lines.remove(4); // record 3
        Problem p = LogVerifierTest.only(verify(lines, BY_VKEY));
        assertEquals("records are missing from log c1: seq 4 (line 5) follows seq 2; record 3 is not in its place (removed, or moved elsewhere)", p.message());

        var other = LogVerifierTest.OTHER;
        var forged = export(List.of(checkpointV1(recs.get(5), other)), List.of(), recs);
        p = LogVerifierTest.only(verify(forged, BY_VKEY));
        assertEquals("the version-1 checkpoint on line 2 (log c1, seq 6) is signed by a key that is not trusted: version-1 key "
                + other.v1KeyId(), p.message());
    }

    @Test
    void aVersion1ArchiveMarkerCountsOnlyIfASignedHeadPinsIt() {
        var recs = chain(10);
        var cps = List.of(checkpointV1(recs.get(4), KEY), checkpointV1(recs.get(9), KEY));
        String marker = json(List.of("type", "archive", "chain", CHAIN, "seq", "5", "hash", recs.get(4).get("hash"),
                "archivedAt", "2026-02-01T00:00:00Z"));
        Report r = verify(export(cps, List.of(marker), recs.subList(5, 10)), BY_VKEY);
        assertTrue(r.ok(), r.toString());
        assertEquals(5, r.logs().get(0).archivedThrough());

        String forged = json(List.of("type", "archive", "chain", CHAIN, "seq", "4", "hash", recs.get(3).get("hash")));
        Problem p = LogVerifierTest.only(verify(export(cps, List.of(forged), recs.subList(4, 10)), BY_VKEY));
        assertTrue(p.message().startsWith("the archive marker on line 4 says records 1 to 4 of log c1 were archived, but no signed"
                + " checkpoint vouches for it"), p.message());
    }

    @Test
    void aLogBegunInVersion1ContinuesInVersion2AsOneTree() throws Exception {
        var recs = chain(20);
        var log = new TestLog(KEY, CHAIN);
        for (var r : recs) {
            var fields = new LinkedHashMap<>(r);
            fields.remove("hash");
            log.tree.append(TreeHash.leaf(V1Record.canonical(fields)), null);
        }
        var lines = new ArrayList<String>();
        lines.add(TestLog.keyLine(KEY));
        lines.add(checkpointV1(recs.get(19), KEY));
        // The version-2 records 21..60 continue the same tree; its checkpoints cover the version-1 records too.
        var v2 = new ArrayList<String>();
        var cpLines = new ArrayList<String>();
        for (long s = 21; s <= 60; s++) {
            var r = TestLog.record(CHAIN, s);
            log.tree.append(RecordFormat.leafHash(r), null);
            v2.add(LogVerifierTest.recordLine(r));
            if (s % 20 == 0) {
                var cp = log.key.sign(CHAIN, s, log.tree.root(), TestLog.T0.plusSeconds(2 * s)); // after its records
                var sb = new StringBuilder();
                new ExportWriter(sb).checkpoint(CHAIN, cp);
                cpLines.add(sb.toString().strip());
            }
        }
        lines.addAll(cpLines);
        recs.forEach(r -> lines.add(recordLine(r)));
        lines.addAll(v2);
        Report r = TestLog.verify(lines, BY_VKEY, false);
        assertTrue(r.ok(), r.toString());
        assertEquals("1 then 2 and 3", r.logs().get(0).formats(), "a log begun in version 1 goes on in versions 2 and 3");
        assertEquals(3, r.logs().get(0).checkpoints(), "one version-1 head, two version-2 checkpoints");

        // A version-1 record changed, its chain rebuilt after it: the version-2 checkpoint still catches it.
        var changed = new ArrayList<>(lines);
        var rebuilt = chain(20);
        rebuilt.get(14).put("uri", "file:///elsewhere");
        String prev = rebuilt.get(13).get("hash");
        for (int i = 14; i < 20; i++) {
            rebuilt.get(i).put("prev", prev);
            rebuilt.get(i).remove("hash");
            rebuilt.get(i).put("hash", V1Record.hash(rebuilt.get(i)));
            prev = rebuilt.get(i).get("hash");
            changed.set(changed.indexOf(recordLine(recs.get(i))), recordLine(rebuilt.get(i)));
        }
        changed.remove(1); // and the version-1 head that would have caught it, too
        Problem p = LogVerifierTest.only(TestLog.verify(changed, BY_VKEY, false));
        assertTrue(p.message().startsWith("the checkpoint at 40 records (line 2) does not match the records of log c1: a record"
                + " between 1 and 40"), p.message());
        assertFalse(p.message().isEmpty());
    }
}
