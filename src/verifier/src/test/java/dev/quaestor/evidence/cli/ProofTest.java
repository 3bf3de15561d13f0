package dev.quaestor.evidence.cli;

import dev.quaestor.evidence.CanonicalRecord;
import dev.quaestor.evidence.Checkpoint;
import dev.quaestor.evidence.ConsistencyProof;
import dev.quaestor.evidence.Hex;
import dev.quaestor.evidence.RecordFormat;
import dev.quaestor.evidence.RecordProof;
import dev.quaestor.evidence.TestLog;
import dev.quaestor.evidence.check.LogVerifierTest;
import dev.quaestor.evidence.check.TrustedKeys;
import dev.quaestor.evidence.prove.LogTree;
import dev.quaestor.evidence.prove.ProofBuilder;
import dev.quaestor.evidence.prove.ProofSource;
import dev.quaestor.evidence.prove.Prover;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proofs on a log of 1,000,000 records: the proof of one record is small and checks fast offline; any
 * byte of it changed makes the check fail; the log's growth between two checkpoints is proved, and a
 * fork is not.
 */
class ProofTest {

    static final int N = 1_000_000;
    static final int HALF = 500_000;
    static final String LOG = "replica-a";
    static final long PROVED = 123_458;
    static final TestLog.Key KEY = LogVerifierTest.KEY;
    static final TrustedKeys TRUST = LogVerifierTest.TRUST;

    static ProofSource source;
    static byte[] leaves;
    static Checkpoint half;
    static Checkpoint full;

    @BeforeAll
    static void build() {
        long started = System.nanoTime();
        source = new ProofSource(r -> r.seq().equals(Long.toString(PROVED)), Map.of(LOG, Set.of((long) HALF, (long) N)));
        leaves = new byte[32 * N];
        for (long seq = 1; seq <= N; seq++) {
            var r = CanonicalRecord.of(TestLog.record(LOG, seq));
            source.record(r, Hex.of(r.leaf()), seq);
            System.arraycopy(r.leaf(), 0, leaves, (int) (32 * (seq - 1)), 32);
            if (seq == HALF) {
                half = KEY.sign(LOG, seq, tree().root(), TestLog.T0.plusSeconds(seq));
            }
        }
        full = KEY.sign(LOG, N, tree().root(), TestLog.T0.plusSeconds(N));
        source.checkpoint(LOG, HALF, half.note(), 0);
        source.checkpoint(LOG, N, full.note(), 0);
        System.out.printf("ProofTest: a log of %,d records built in %.1f s%n", N, (System.nanoTime() - started) / 1e9);
    }

    static LogTree tree() {
        return source.logs().get(LOG).tree;
    }

    static byte[] proofFile() throws Prover.NotProved {
        var found = source.found();
        assertEquals(1, found.size());
        return Prover.prove(source.logs().get(LOG), found.get(0), TRUST).format().getBytes(StandardCharsets.UTF_8);
    }

    static int check(byte[] file, ByteArrayOutputStream out) {
        try {
            return CheckCommand.check(file, TRUST, null, new PrintStream(out, true, StandardCharsets.UTF_8));
        } catch (UsageError e) {
            return Main.USAGE;
        }
    }

    @Test
    void theProofOfOneRecordIsSmallAndChecksFast() throws Exception {
        byte[] file = proofFile();
        var out = new ByteArrayOutputStream();
        System.gc(); // the tests before this one leave garbage whose collection is theirs, not the check's
        long started = System.nanoTime();
        int code = check(file, out);
        long first = System.nanoTime() - started;
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(Main.VERIFIED, code, text);
        long[] runs = new long[21];
        for (int i = 0; i < runs.length; i++) {
            long t = System.nanoTime();
            check(file, new ByteArrayOutputStream());
            runs[i] = System.nanoTime() - t;
        }
        Arrays.sort(runs);
        System.out.printf("ProofTest: proof of record %,d in a log of %,d records: %,d bytes, %d path hashes;"
                + " check took %.2f ms the first time, %.2f ms typically (in-process)%n", PROVED, N, file.length,
                RecordProof.parseAll(new String(file, StandardCharsets.UTF_8)).get(0).path().size(), first / 1e6, runs[10] / 1e6);
        assertTrue(file.length < 4096, file.length + " bytes");
        assertTrue(first < 50_000_000, "check took " + first / 1e6 + " ms");
        // What a person reads: who, what, when, which URI, outcome, bytes, sha256, policy revision.
        for (String s : List.of("who:", "alice", "when (UTC):", "resource (URI):", "file:///reports/q2/123458.txt", "outcome:", "ok", "bytes disclosed:", "SHA-256 of the bytes disclosed:",
                "policy revision:", "3f2a9c0d", "VERIFIED: this record is in log quaestor.audit/replica-a as signed at 1,000,000 records")) {
            assertTrue(text.contains(s), s + " in:\n" + text);
        }
        // The proof holds the record itself, then only hashes and the checkpoint: nothing of any other record.
        var parsed = RecordProof.parseAll(new String(file, StandardCharsets.UTF_8)).get(0);
        assertTrue(Arrays.equals(RecordFormat.canonical(TestLog.record(LOG, PROVED)), parsed.record()));
        assertEquals(PROVED - 1, parsed.index());
        assertTrue(parsed.path().stream().allMatch(h -> h.length == 32));
        assertEquals(full.note(), parsed.checkpoint());
    }

    @Test
    void changingAnyByteOfTheProofMakesTheCheckFail() throws Exception {
        byte[] file = proofFile();
        int header = (RecordProof.HEADER + "\n").length();
        long started = System.nanoTime();
        for (int i = 0; i < file.length; i++) {
            byte[] changed = file.clone();
            changed[i] ^= 0x01;
            int code = check(changed, new ByteArrayOutputStream());
            assertNotEquals(Main.VERIFIED, code, "byte " + i + " changed and the proof still checks");
            if (i >= header) {
                assertEquals(Main.NOT_VERIFIED, code, "byte " + i);
            }
        }
        System.out.printf("ProofTest: each of the %,d bytes of the proof changed in turn: every change fails the check (%.1f s)%n",
                file.length, (System.nanoTime() - started) / 1e9);
    }

    @Test
    void theLogOnlyGrewBetweenTwoCheckpointsAndAForkIsCaught(@TempDir Path dir) throws Exception {
        var builder = new ProofBuilder(tree());
        String origin = "quaestor.audit/" + LOG;
        Path older = write(dir, "old.checkpoint", half.note());
        Path newer = write(dir, "new.checkpoint", full.note());
        Path proof = write(dir, "proof", new ConsistencyProof(origin, HALF, N, builder.consistency(HALF, N)).format());
        assertEquals(Main.VERIFIED, consistency(older, newer, proof));

        // A second history that differs in record 777: signed by the same key, it is a fork of the first.
        Fork fork = fork(777);
        Path forkNew = write(dir, "fork.checkpoint", fork.checkpoint.note());
        Path forkProof = write(dir, "fork.proof", new ConsistencyProof(origin, HALF, N, fork.builder.consistency(HALF, N)).format());
        assertEquals(Main.NOT_VERIFIED, consistency(older, forkNew, forkProof));
        assertEquals(Main.NOT_VERIFIED, consistency(older, forkNew, proof));

        // A difference after the older checkpoint is not a fork of it: that log did only grow from it.
        Fork later = fork(750_000);
        Path laterNew = write(dir, "later.checkpoint", later.checkpoint.note());
        Path laterProof = write(dir, "later.proof", new ConsistencyProof(origin, HALF, N, later.builder.consistency(HALF, N)).format());
        assertEquals(Main.VERIFIED, consistency(older, laterNew, laterProof));
        assertEquals(Main.NOT_VERIFIED, consistency(newer, laterNew, write(dir, "same.proof",
                new ConsistencyProof(origin, N, N, List.of()).format())));
    }

    record Fork(Checkpoint checkpoint, ProofBuilder builder) {
    }

    /** The same log with record {@code seq} different. */
    static Fork fork(long seq) {
        var t = new LogTree();
        t.keepSize(HALF);
        t.keepSize(N);
        var r = TestLog.record(LOG, seq);
        r.put("subject", "mallory");
        byte[] changed = RecordFormat.leafHash(r);
        for (int i = 0; i < N; i++) {
            t.append(i == seq - 1 ? changed : Arrays.copyOfRange(leaves, 32 * i, 32 * i + 32));
        }
        return new Fork(KEY.sign(LOG, N, t.root(), TestLog.T0.plusSeconds(N + 1)), new ProofBuilder(t));
    }

    static int consistency(Path older, Path newer, Path proof) {
        var out = new ByteArrayOutputStream();
        int code = Main.run(new String[] {"consistency", older.toString(), newer.toString(), proof.toString(), "--trust",
            KEY.vkey().toString()}, new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        System.out.println("ProofTest: consistency " + older.getFileName() + " " + newer.getFileName() + ": "
                + out.toString(StandardCharsets.UTF_8).strip());
        return code;
    }

    static Path write(Path dir, String name, String text) throws Exception {
        return Files.writeString(dir.resolve(name), text);
    }
}
